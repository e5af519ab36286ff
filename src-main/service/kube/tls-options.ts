/**
 * The TLS side of a kubeconfig context, read once per cluster the way kubectl reads it: the CA
 * (`certificate-authority` file or `-data`), the client certificate and key (file or `-data`),
 * `insecure-skip-tls-verify` and `tls-server-name`. Each piece is loaded into a secure context
 * here, so a broken one is named ("the client key (client-key-data) could not be read") instead
 * of surfacing later as an anonymous handshake failure.
 */

import { X509Certificate } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createSecureContext, getCACertificates } from 'node:tls';
import { ProblemError } from '../errors';
import type { ContextConfig } from './kubeconfig';

export interface TlsSettings {
  ca?: string[];
  cert?: Buffer;
  key?: Buffer;
  /** Set only when the kubeconfig skips verification; otherwise Node's default (verify) holds. */
  rejectUnauthorized?: false;
  servername?: string;
}

export interface ClientPair {
  cert: Buffer;
  key: Buffer;
}

export function setupProblem(detail: string): ProblemError {
  return new ProblemError('cluster_unreachable', `the cluster's TLS settings cannot be used: ${detail}`);
}

function load(what: string, file: string | undefined, data: string | undefined): Buffer | undefined {
  if (file) {
    try {
      return readFileSync(file);
    } catch (err) {
      throw setupProblem(`${what} file ${file} could not be read (${(err as NodeJS.ErrnoException).code})`);
    }
  }
  return data ? Buffer.from(data, 'base64') : undefined;
}

function reason(err: unknown): string {
  const message = err instanceof Error ? err.message : String(err);
  return message.replace(/^error:[0-9A-F]+:/i, '').trim();
}

/**
 * When the kubeconfig names no CA, kubectl trusts the operating system's roots; Node by itself
 * trusts only its bundled Mozilla list, so the system store is added to it.
 */
function defaultRoots(): string[] | undefined {
  try {
    return [...new Set([...getCACertificates('default'), ...getCACertificates('system')])];
  } catch {
    return undefined;
  }
}

const PEM_CERT = /-----BEGIN CERTIFICATE-----[^-]+-----END CERTIFICATE-----/g;

/** OpenSSL skips what it cannot parse in a CA bundle, so each certificate is parsed here. */
function checkCa(pem: string, source: string): string {
  const blocks = pem.match(PEM_CERT) ?? [];
  if (blocks.length === 0) throw setupProblem(`the CA (${source}) holds no PEM certificate`);
  for (const block of blocks) {
    try {
      new X509Certificate(block);
    } catch (err) {
      throw setupProblem(`the CA (${source}) could not be read: ${reason(err)}`);
    }
  }
  return pem;
}

/** Checks a client certificate and key belong together and can be used; throws a named problem. */
export function checkClientPair(pair: ClientPair, source: string): void {
  try {
    createSecureContext({ cert: pair.cert });
  } catch (err) {
    throw setupProblem(`the client certificate (${source}) could not be read: ${reason(err)}`);
  }
  try {
    createSecureContext({ key: pair.key });
  } catch (err) {
    throw setupProblem(`the client key (${source}) could not be read: ${reason(err)}`);
  }
  try {
    createSecureContext({ cert: pair.cert, key: pair.key });
  } catch (err) {
    throw setupProblem(`the client certificate and key (${source}) do not match: ${reason(err)}`);
  }
}

/** The TLS settings of the kubeconfig's current context; throws a cluster_unreachable problem. */
export function tlsSettingsOf({ cluster, user }: ContextConfig): TlsSettings {
  const url = cluster.server;
  if (url.startsWith('http:')) {
    // client-node's rule, kept: plain http is spoken only when the kubeconfig says verification is off.
    if (!cluster.skipTLSVerify) {
      throw setupProblem(`${url} is plain http; that needs insecure-skip-tls-verify: true in the kubeconfig`);
    }
    return {};
  }
  if (!url.startsWith('https:')) throw setupProblem(`the server ${url} is neither https nor http`);

  const out: TlsSettings = {};
  if (cluster.skipTLSVerify) out.rejectUnauthorized = false;
  if (cluster.tlsServerName) out.servername = cluster.tlsServerName;
  const ca = load('the certificate-authority', cluster.caFile, cluster.caData);
  if (ca) {
    const source = cluster.caFile ? 'certificate-authority' : 'certificate-authority-data';
    out.ca = [checkCa(ca.toString('utf8'), source)];
  } else if (!cluster.skipTLSVerify) {
    const roots = defaultRoots();
    if (roots) out.ca = roots;
  }

  const cert = user ? load('the client-certificate', user.certFile, user.certData) : undefined;
  const key = user ? load('the client-key', user.keyFile, user.keyData) : undefined;
  if (cert && !key) throw setupProblem('the user has a client certificate but no client key');
  if (key && !cert) throw setupProblem('the user has a client key but no client certificate');
  if (cert && key) {
    const source = user?.certFile
      ? 'client-certificate/client-key'
      : 'client-certificate-data/client-key-data';
    checkClientPair({ cert, key }, source);
    out.cert = cert;
    out.key = key;
  }
  return out;
}
