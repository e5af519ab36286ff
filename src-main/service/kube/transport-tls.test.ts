/**
 * The dispatchers' TLS, against a real HTTPS server with its own CA on loopback: which CA is
 * trusted, the client certificate presented (the kubeconfig's, or an exec plugin's instead),
 * insecure-skip-tls-verify and tls-server-name.
 */
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import type { TLSSocket } from 'node:tls';
import { createPki, type SimPki } from '@skiff/kube-simulator';
import { type Dispatcher, request } from 'undici';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TlsSettings } from './tls-options';
import { createDispatchers, destroyDispatchers } from './transport';

let pki: SimPki;
let stranger: SimPki;
let server: Server;
let url: string;

beforeAll(async () => {
  [pki, stranger] = await Promise.all([createPki(), createPki()]);
  // Answers with the CN of the client certificate it was shown, or "-".
  server = createServer(
    {
      cert: pki.serverCertPem,
      key: pki.serverKeyPem,
      ca: pki.caPem,
      requestCert: true,
      rejectUnauthorized: false,
    },
    (req, res) => {
      const peer = (req.socket as TLSSocket).getPeerCertificate();
      res.end(peer?.subject?.CN ?? '-');
    },
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `https://127.0.0.1:${(server.address() as AddressInfo).port}/`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

/** What the server says of a request through each dispatcher, or the code the connection failed with. */
async function ask(tls: TlsSettings, pair?: { cert: Buffer; key: Buffer }, target = url): Promise<string> {
  const d = createDispatchers(undefined, tls, pair);
  const through = (dispatcher: Dispatcher) =>
    request(target, { dispatcher }).then(
      (res) => res.body.text(),
      (err: { code?: string }) => `failed: ${err.code ?? 'unknown'}`,
    );
  try {
    const short = await through(d.short);
    // Both dispatchers are built from the same settings: they must agree.
    expect(await through(d.stream)).toBe(short);
    return short;
  } finally {
    await destroyDispatchers(d);
  }
}

const client = () => ({ cert: Buffer.from(pki.client.certPem), key: Buffer.from(pki.client.keyPem) });

describe('the TLS of both dispatchers', () => {
  it('trusts the CA the kubeconfig names, and only it', async () => {
    expect(await ask({ ca: [pki.caPem] })).toBe('-');
    expect(await ask({ ca: [stranger.caPem] })).toMatch(/^failed: /);
  });

  it('presents the kubeconfig’s client certificate', async () => {
    const { cert, key } = client();
    expect(await ask({ ca: [pki.caPem], cert, key })).toBe(pki.client.user);
  });

  it("presents an exec plugin's client certificate instead of the kubeconfig's", async () => {
    const other = await pki.issueClient('from-plugin');
    const pair = { cert: Buffer.from(other.certPem), key: Buffer.from(other.keyPem) };
    expect(await ask({ ca: [pki.caPem], ...client() }, pair)).toBe('from-plugin');
    expect(await ask({ ca: [pki.caPem] }, pair)).toBe('from-plugin');
  });

  it('insecure-skip-tls-verify connects to a server no trusted CA signed', async () => {
    expect(await ask({ rejectUnauthorized: false })).toBe('-');
    expect(await ask({ ca: [stranger.caPem], rejectUnauthorized: false })).toBe('-');
  });

  it('tls-server-name is the name the certificate is checked against', async () => {
    expect(await ask({ ca: [pki.caPem], servername: 'localhost' })).toBe('-');
    expect(await ask({ ca: [pki.caPem], servername: 'not-the-cluster.example' })).toBe(
      'failed: ERR_TLS_CERT_ALTNAME_INVALID',
    );
  });
});
