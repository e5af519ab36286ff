/**
 * How a context's TLS settings are read from its kubeconfig records, one rule per test: what each
 * field turns into, and how each broken piece is named before any connection is tried.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { rootCertificates } from 'node:tls';
import { createPki, type SimPki } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import type { KubeCluster, KubeUser } from './kubeconfig-file';
import { type TlsSettings, tlsSettingsOf } from './tls-options';

let pki: SimPki;
let other: SimPki;
let dir: string;
beforeAll(async () => {
  [pki, other] = await Promise.all([createPki(), createPki()]);
  dir = await mkdtemp(join(tmpdir(), 'skiff-tls-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

const b64 = (text: string) => Buffer.from(text).toString('base64');

function settings(cluster: Partial<KubeCluster>, user?: Partial<KubeUser>): TlsSettings {
  return tlsSettingsOf({
    context: { name: 'ctx', cluster: 'c' },
    cluster: { name: 'c', server: 'https://127.0.0.1:6443', skipTLSVerify: false, ...cluster },
    user: user ? { name: 'u', ...user } : null,
  });
}

/** The problem a context's settings are refused with. */
function refusal(cluster: Partial<KubeCluster>, user?: Partial<KubeUser>): ProblemError {
  try {
    settings(cluster, user);
  } catch (err) {
    return err as ProblemError;
  }
  throw new Error('the settings were accepted');
}

const PREFIX = "the cluster's TLS settings cannot be used: ";

describe('the server URL', () => {
  it('plain http is refused unless the kubeconfig turns verification off, as client-node does', () => {
    const refused = refusal({ server: 'http://127.0.0.1:8080' });
    expect(refused.code).toBe('cluster_unreachable');
    expect(refused.message).toBe(
      `${PREFIX}http://127.0.0.1:8080 is plain http; that needs insecure-skip-tls-verify: true in the kubeconfig`,
    );
    expect(settings({ server: 'http://127.0.0.1:8080', skipTLSVerify: true })).toEqual({});
  });

  it('a scheme that is neither https nor http is refused, naming the server', () => {
    expect(refusal({ server: 'ftp://127.0.0.1' }).message).toBe(
      `${PREFIX}the server ftp://127.0.0.1 is neither https nor http`,
    );
  });
});

describe('verifying the server', () => {
  it('certificate-authority-data is trusted alone, as the PEM it decodes to', () => {
    expect(settings({ caData: b64(pki.caPem) })).toEqual({ ca: [pki.caPem] });
  });

  it('a certificate-authority file is read from disk', async () => {
    const file = join(dir, 'ca.crt');
    await writeFile(file, pki.caPem);
    expect(settings({ caFile: file, caData: b64(other.caPem) }).ca).toEqual([pki.caPem]);
  });

  it('without a CA, the bundled and the system roots are trusted, as kubectl trusts the system', () => {
    const { ca, rejectUnauthorized } = settings({});
    expect(rejectUnauthorized).toBeUndefined();
    expect(ca?.length).toBeGreaterThanOrEqual(rootCertificates.length);
    expect(new Set(ca).size).toBe(ca?.length);
  });

  it('insecure-skip-tls-verify turns verification off and adds no roots', () => {
    expect(settings({ skipTLSVerify: true })).toEqual({ rejectUnauthorized: false });
  });

  it('tls-server-name is the name the certificate is checked against', () => {
    expect(settings({ caData: b64(pki.caPem), tlsServerName: 'kubernetes.default' })).toEqual({
      ca: [pki.caPem],
      servername: 'kubernetes.default',
    });
  });

  it.each([
    [
      'holds no certificate',
      { caData: b64('not a certificate') },
      'the CA (certificate-authority-data) holds no PEM certificate',
    ],
    [
      'holds a certificate that cannot be parsed',
      { caData: b64('-----BEGIN CERTIFICATE-----\nAAAA\n-----END CERTIFICATE-----\n') },
      'the CA (certificate-authority-data) could not be read: ',
    ],
  ])('a CA that %s is refused, naming where it came from', (_, cluster, expected) => {
    const refused = refusal(cluster);
    expect(refused.message.startsWith(`${PREFIX}${expected}`)).toBe(true);
  });

  it('a CA file that cannot be read is refused, naming the file and why', () => {
    const missing = join(dir, 'no-such-ca.crt');
    expect(refusal({ caFile: missing }).message).toBe(
      `${PREFIX}the certificate-authority file ${missing} could not be read (ENOENT)`,
    );
  });

  it('an unreadable certificate in a CA file is named as the file', async () => {
    const file = join(dir, 'broken-ca.crt');
    await writeFile(file, 'garbage');
    expect(refusal({ caFile: file }).message).toBe(
      `${PREFIX}the CA (certificate-authority) holds no PEM certificate`,
    );
  });
});

describe('the client certificate', () => {
  it('certificate and key data are used as the bytes they decode to', () => {
    const out = settings({}, { certData: b64(pki.client.certPem), keyData: b64(pki.client.keyPem) });
    expect(out.cert?.toString()).toBe(pki.client.certPem);
    expect(out.key?.toString()).toBe(pki.client.keyPem);
  });

  it('certificate and key files are read from disk', async () => {
    const [certFile, keyFile] = [join(dir, 'client.crt'), join(dir, 'client.key')];
    await writeFile(certFile, pki.client.certPem);
    await writeFile(keyFile, pki.client.keyPem);
    const out = settings({}, { certFile, keyFile });
    expect(out.cert?.toString()).toBe(pki.client.certPem);
    expect(out.key?.toString()).toBe(pki.client.keyPem);
  });

  it('one without the other is refused, saying which is missing', () => {
    expect(refusal({}, { certData: b64(pki.client.certPem) }).message).toBe(
      `${PREFIX}the user has a client certificate but no client key`,
    );
    expect(refusal({}, { keyData: b64(pki.client.keyPem) }).message).toBe(
      `${PREFIX}the user has a client key but no client certificate`,
    );
  });

  it('a user with neither sends no client certificate', () => {
    expect(settings({ caData: b64(pki.caPem) }, { token: 't' })).toEqual({ ca: [pki.caPem] });
  });

  it.each([
    [
      'a certificate that cannot be read',
      () => ({ certData: b64('not a certificate'), keyData: b64(pki.client.keyPem) }),
      'the client certificate (client-certificate-data/client-key-data) could not be read: ',
    ],
    [
      'a key that cannot be read',
      () => ({ certData: b64(pki.client.certPem), keyData: b64('not a key') }),
      'the client key (client-certificate-data/client-key-data) could not be read: ',
    ],
    [
      'a key of another certificate',
      () => ({ certData: b64(pki.client.certPem), keyData: b64(other.client.keyPem) }),
      'the client certificate and key (client-certificate-data/client-key-data) do not match: ',
    ],
  ])('%s is refused, naming the pair and without OpenSSL’s error number', (_, user, expected) => {
    const { message } = refusal({}, user());
    expect(message.startsWith(`${PREFIX}${expected}`)).toBe(true);
    expect(message.length).toBeGreaterThan(PREFIX.length + expected.length);
    expect(message).not.toMatch(/error:[0-9A-F]+:/i);
  });

  it('a pair read from files is named by the file fields', async () => {
    const [certFile, keyFile] = [join(dir, 'pair.crt'), join(dir, 'other.key')];
    await writeFile(certFile, pki.client.certPem);
    await writeFile(keyFile, other.client.keyPem);
    expect(refusal({}, { certFile, keyFile }).message).toMatch(
      /^the cluster's TLS settings cannot be used: the client certificate and key \(client-certificate\/client-key\) do not match: /,
    );
  });

  it('a client certificate file that cannot be read is named', () => {
    const missing = join(dir, 'no-such.crt');
    expect(refusal({}, { certFile: missing, keyData: b64(pki.client.keyPem) }).message).toBe(
      `${PREFIX}the client-certificate file ${missing} could not be read (ENOENT)`,
    );
  });
});
