/**
 * The simulator's own small PKI: a certificate authority, a server certificate for the names it
 * listens on, and client certificates signed by the same CA, as a kubeadm cluster has them. Keys
 * are ECDSA P-256 (fast to make, accepted by Go's crypto/tls, so kubectl reads the kubeconfig
 * the simulator writes). The server certificate names its hosts as subjectAltNames, since Go
 * ignores the CN; client certificates carry the user in CN and groups in O, as the apiserver reads
 * them, with the clientAuth key usage it requires.
 */

import { isIP } from 'node:net';
import type * as X509 from '@peculiar/x509';

export interface ClientIdentity {
  /** The certificate's CN: the user the apiserver sees. */
  user: string;
  certPem: string;
  keyPem: string;
}

export interface SimPki {
  caPem: string;
  serverCertPem: string;
  serverKeyPem: string;
  /** A client certificate made with the PKI, for kubeconfigs with client-certificate-data. */
  client: ClientIdentity;
  /** Signs another client certificate with this CA. */
  issueClient(user: string, groups?: readonly string[]): Promise<ClientIdentity>;
}

interface PkiOptions {
  /** Names the server certificate is valid for, besides 127.0.0.1, ::1 and localhost. */
  hosts?: readonly string[];
  /** CN of the ready-made client certificate. */
  user?: string;
  /** Validity in days (from an hour ago, to tolerate clock skew). */
  days?: number;
}

const DEFAULT_CLIENT_USER = 'skiff-admin';

const EC = { name: 'ECDSA', namedCurve: 'P-256', hash: 'SHA-256' } as const;
const DAY_MS = 86_400_000;

// @peculiar/x509 pulls in tsyringe, which needs the Reflect metadata polyfill before it loads:
// both are imported on first use, in that order, so a plain-HTTP simulator never loads either.
let x509Module: Promise<typeof X509> | undefined;
function x509(): Promise<typeof X509> {
  x509Module ??= import('reflect-metadata').then(() => import('@peculiar/x509'));
  return x509Module;
}

function pem(label: string, der: ArrayBuffer): string {
  const b64 = Buffer.from(der).toString('base64');
  return `-----BEGIN ${label}-----\n${b64.match(/.{1,64}/g)?.join('\n') ?? ''}\n-----END ${label}-----\n`;
}

async function keyPair(): Promise<CryptoKeyPair> {
  return crypto.subtle.generateKey(EC, true, ['sign', 'verify']);
}

async function privateKeyPem(key: CryptoKey): Promise<string> {
  return pem('PRIVATE KEY', await crypto.subtle.exportKey('pkcs8', key));
}

/** A quoted RDN value: user and group names may hold commas or other special characters. */
function rdn(value: string): string {
  return `"${value.replace(/["\\]/g, '\\$&')}"`;
}

export async function createPki(opts: PkiOptions = {}): Promise<SimPki> {
  const lib = await x509();
  const days = opts.days ?? 365;
  const notBefore = new Date(Date.now() - 3_600_000);
  const notAfter = new Date(Date.now() + days * DAY_MS);

  const caKeys = await keyPair();
  const ca = await lib.X509CertificateGenerator.createSelfSigned({
    name: 'CN=skiff-simulator-ca',
    keys: caKeys,
    signingAlgorithm: EC,
    notBefore,
    notAfter,
    extensions: [
      new lib.BasicConstraintsExtension(true, 0, true),
      new lib.KeyUsagesExtension(lib.KeyUsageFlags.keyCertSign | lib.KeyUsageFlags.cRLSign, true),
      await lib.SubjectKeyIdentifierExtension.create(caKeys.publicKey),
    ],
  });

  const issue = async (
    subject: string,
    usage: X509.ExtendedKeyUsage,
    extra: X509.Extension[],
  ): Promise<{ certPem: string; keyPem: string }> => {
    const keys = await keyPair();
    const cert = await lib.X509CertificateGenerator.create({
      subject,
      issuer: ca.subject,
      publicKey: keys.publicKey,
      signingKey: caKeys.privateKey,
      signingAlgorithm: EC,
      notBefore,
      notAfter,
      extensions: [
        new lib.BasicConstraintsExtension(false, undefined, true),
        new lib.KeyUsagesExtension(lib.KeyUsageFlags.digitalSignature, true),
        new lib.ExtendedKeyUsageExtension([usage]),
        await lib.AuthorityKeyIdentifierExtension.create(caKeys.publicKey),
        ...extra,
      ],
    });
    return { certPem: cert.toString('pem'), keyPem: await privateKeyPem(keys.privateKey) };
  };

  const hosts = new Set(['127.0.0.1', '::1', 'localhost', ...(opts.hosts ?? [])]);
  hosts.delete('0.0.0.0');
  hosts.delete('::');
  const names = [...hosts].map((h) => ({ type: isIP(h) ? ('ip' as const) : ('dns' as const), value: h }));
  const server = await issue('CN=skiff-simulator', lib.ExtendedKeyUsage.serverAuth, [
    new lib.SubjectAlternativeNameExtension(names),
  ]);

  const issueClient = async (user: string, groups: readonly string[] = ['system:masters']) => {
    const subject = [`CN=${rdn(user)}`, ...groups.map((g) => `O=${rdn(g)}`)].join(', ');
    const made = await issue(subject, lib.ExtendedKeyUsage.clientAuth, []);
    return { user, ...made };
  };

  return {
    caPem: ca.toString('pem'),
    serverCertPem: server.certPem,
    serverKeyPem: server.keyPem,
    client: await issueClient(opts.user ?? DEFAULT_CLIENT_USER),
    issueClient,
  };
}
