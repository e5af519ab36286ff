/**
 * HTTPS served by Skiff itself from `--tls-cert/--tls-key` files, over real TLS connections
 * (issue 25 §3): the pair on disk is served; a renewed pair written over it is served from the
 * next handshake on (cert-manager renewing a mounted Secret); a mismatched pair is refused and the
 * previous one kept. A client over TLS is on https without any proxy (its own https Origin is
 * same-origin). Waits are for states (the served certificate, the log line), never for times.
 */
import { X509Certificate } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TLSSocket } from 'node:tls';
import { createPki, type SimPki } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createService, type Service } from '../index';
import { recordingLogger } from './recording-logger.test-support';
import { readTlsPair, TlsFilesError } from './tls-files';

interface Answer {
  status: number;
  body: string;
  /** SHA-256 of the certificate the server presented, in DER. */
  served: string;
}

const fingerprint = (pem: string) => new X509Certificate(pem).fingerprint256;

function get(url: string, ca: string[], headers: Record<string, string> = {}): Promise<Answer> {
  return new Promise((resolve, reject) => {
    // A new connection (agent: false) each time, so each answer shows the pair of a new handshake.
    const req = request(url, { ca, agent: false, headers }, (res) => {
      const cert = (res.socket as TLSSocket).getPeerCertificate();
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => {
        body += c;
      });
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          body,
          served: new X509Certificate(cert.raw).fingerprint256,
        }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean): Promise<T> {
  for (;;) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 50));
  }
}

let dir: string;
let first: SimPki;
let second: SimPki;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'skiff-https-'));
  [first, second] = await Promise.all([createPki(), createPki()]);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('--tls-cert / --tls-key', () => {
  let service: Service;
  let url: string;
  const certFile = () => join(dir, 'tls.crt');
  const keyFile = () => join(dir, 'tls.key');
  const { logger, entries } = recordingLogger();
  beforeAll(async () => {
    await writeFile(certFile(), first.serverCertPem);
    await writeFile(keyFile(), first.serverKeyPem);
    service = createService({
      contexts: [],
      logger,
      tls: { certFile: certFile(), keyFile: keyFile(), pollMs: 50 },
    });
    ({ url } = await service.listen(0, '127.0.0.1'));
  });
  afterAll(() => service?.close());

  it('serves HTTPS with the pair on disk', async () => {
    expect(url).toMatch(/^https:\/\/127\.0\.0\.1:\d+$/);
    const res = await get(`${url}/v1/health`, [first.caPem]);
    expect(res.status).toBe(200);
    expect(res.served).toBe(fingerprint(first.serverCertPem));
  });

  it('a client over TLS is on https: its own https Origin is same-origin, http is not', async () => {
    const port = new URL(url).port;
    expect(
      (await get(`${url}/v1/health`, [first.caPem], { origin: `https://127.0.0.1:${port}` })).status,
    ).toBe(200);
    const plain = await get(`${url}/v1/health`, [first.caPem], { origin: `http://127.0.0.1:${port}` });
    expect([plain.status, JSON.parse(plain.body).code]).toEqual([403, 'origin_not_allowed']);
  });

  it('serves a renewed pair written over the files, from the next handshake on', async () => {
    await writeFile(certFile(), second.serverCertPem);
    await writeFile(keyFile(), second.serverKeyPem);
    const res = await until(
      () => get(`${url}/v1/health`, [first.caPem, second.caPem]),
      (r) => r.served === fingerprint(second.serverCertPem),
    );
    expect(res.status).toBe(200);
    expect(entries).toContainEqual(
      expect.objectContaining({ msg: 'serving the renewed TLS certificate', cert: certFile() }),
    );
  });

  it('keeps the pair it serves when the files no longer match, and says so', async () => {
    const warned = () => entries.filter((e) => e.msg === 'kept the TLS certificate served until now').length;
    const before = warned();
    await writeFile(keyFile(), first.serverKeyPem); // second's certificate, first's key
    await until(
      async () => warned(),
      (n) => n > before,
    );
    const res = await get(`${url}/v1/health`, [first.caPem, second.caPem]);
    expect([res.status, res.served]).toEqual([200, fingerprint(second.serverCertPem)]);
  });
});

describe('readTlsPair', () => {
  it('names the file that cannot be read, and a pair that does not match', async () => {
    const cert = join(dir, 'a.crt');
    const key = join(dir, 'a.key');
    await writeFile(cert, first.serverCertPem);
    await writeFile(key, second.serverKeyPem);
    expect(() => readTlsPair({ certFile: join(dir, 'none.crt'), keyFile: key })).toThrow(
      new TlsFilesError(`--tls-cert ${join(dir, 'none.crt')}: cannot be read (ENOENT)`),
    );
    expect(() => readTlsPair({ certFile: cert, keyFile: join(dir, 'none.key') })).toThrow(
      `--tls-key ${join(dir, 'none.key')}: cannot be read (ENOENT)`,
    );
    expect(() => readTlsPair({ certFile: cert, keyFile: key })).toThrow(
      `--tls-cert ${cert} and --tls-key ${key} cannot be served together: `,
    );
    await writeFile(key, first.serverKeyPem);
    expect(readTlsPair({ certFile: cert, keyFile: key }).cert.toString()).toBe(first.serverCertPem);
  });
});
