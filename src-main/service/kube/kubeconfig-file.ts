/**
 * Reads one kubeconfig document into plain records, the way kubectl reads it: unknown fields are
 * ignored, relative file paths are taken from the kubeconfig's own folder, and an entry that
 * cannot be used is named ("users[2].name is missing"). Our own reader rather than client-node's
 * KubeConfig, because loading client-node pulls in its whole generated API (54–84 MiB of heap)
 * for what is a few dozen lines of YAML; client-node is loaded only for the auth-provider users
 * that need its authenticators (see credentials.ts).
 */

import { dirname, isAbsolute, join, sep } from 'node:path';
import { parse } from 'yaml';
import { z } from 'zod';

export interface KubeCluster {
  name: string;
  server: string;
  caData?: string;
  caFile?: string;
  skipTLSVerify: boolean;
  tlsServerName?: string;
  proxyUrl?: string;
}

export interface AuthProviderConfig {
  name: string;
  config?: Record<string, unknown>;
}

export interface KubeUser {
  name: string;
  token?: string;
  tokenFile?: string;
  certData?: string;
  certFile?: string;
  keyData?: string;
  keyFile?: string;
  username?: string;
  password?: string;
  impersonateUser?: string;
  /** Validated when used (exec-plugin.ts), so one bad stanza spoils only its own context. */
  exec?: unknown;
  authProvider?: AuthProviderConfig;
}

export interface KubeContext {
  name: string;
  cluster: string;
  user?: string;
  namespace?: string;
}

export interface KubeconfigDocument {
  clusters: KubeCluster[];
  users: KubeUser[];
  contexts: KubeContext[];
  currentContext?: string;
}

/** A kubeconfig that cannot be read, with the file and the entry named. */
export class KubeconfigError extends Error {
  override name = 'KubeconfigError';
}

const text = z.string().nullish();
const Name = z.string({ error: 'name is missing' }).min(1, 'name is missing');

const ClusterFields = z.looseObject({
  server: z.string({ error: 'server is missing' }).min(1, 'server is missing'),
  'certificate-authority': text,
  'certificate-authority-data': text,
  'insecure-skip-tls-verify': z.boolean().nullish(),
  'tls-server-name': text,
  'proxy-url': text,
});

const UserFields = z
  .looseObject({
    token: text,
    tokenFile: text,
    // client-node's spelling; kubectl's is tokenFile.
    'token-file': text,
    'client-certificate': text,
    'client-certificate-data': text,
    'client-key': text,
    'client-key-data': text,
    username: text,
    password: text,
    as: text,
    exec: z.unknown().optional(),
    'auth-provider': z
      .looseObject({ name: z.string(), config: z.record(z.string(), z.unknown()).nullish() })
      .nullish(),
  })
  .nullish();

const ContextFields = z.looseObject({
  cluster: z.string({ error: 'cluster is missing' }).min(1, 'cluster is missing'),
  user: text,
  namespace: text,
});

const DocumentSchema = z.looseObject({
  clusters: z.array(z.looseObject({ name: Name, cluster: ClusterFields })).nullish(),
  users: z.array(z.looseObject({ name: Name, user: UserFields })).nullish(),
  contexts: z.array(z.looseObject({ name: Name, context: ContextFields })).nullish(),
  'current-context': text,
});

/** kubectl resolves relative paths against the folder of the file that names them. */
function resolved(root: string | undefined, file: string | null | undefined): string | undefined {
  if (!file) return undefined;
  return root && !isAbsolute(file) ? join(root, file) : file;
}

/** An exec command with a path separator in it is relative to the kubeconfig; a bare name is looked up on PATH. */
function resolvedExec(root: string | undefined, exec: unknown): unknown {
  if (!root || typeof exec !== 'object' || exec === null) return exec;
  const command = (exec as { command?: unknown }).command;
  if (typeof command !== 'string' || isAbsolute(command) || !command.includes(sep)) return exec;
  return { ...exec, command: join(root, command) };
}

const defined = <T extends object>(record: T): T =>
  Object.fromEntries(Object.entries(record).filter(([, v]) => v !== undefined && v !== null)) as T;

/**
 * Parses one kubeconfig. `file` names it in errors and anchors relative paths; without it
 * (an in-memory document) paths are kept as written.
 */
export function parseKubeconfig(source: string, file?: string): KubeconfigDocument {
  const where = file ? `kubeconfig ${file}` : 'kubeconfig';
  let raw: unknown;
  try {
    raw = parse(source) ?? {};
  } catch (err) {
    throw new KubeconfigError(`${where}: not YAML: ${(err as Error).message.split('\n')[0]}`);
  }
  const parsed = DocumentSchema.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const path = issue.path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('');
    throw new KubeconfigError(`${where}: ${path.replace(/^\./, '') || 'document'}: ${issue.message}`);
  }
  const doc = parsed.data;
  const root = file ? dirname(file) : undefined;
  return {
    clusters: (doc.clusters ?? []).map(({ name, cluster: c }) =>
      defined({
        name,
        server: c.server.replace(/\/$/, ''),
        caData: c['certificate-authority-data'] ?? undefined,
        caFile: resolved(root, c['certificate-authority']),
        skipTLSVerify: c['insecure-skip-tls-verify'] === true,
        tlsServerName: c['tls-server-name'] ?? undefined,
        proxyUrl: c['proxy-url'] ?? undefined,
      }),
    ),
    users: (doc.users ?? []).map(({ name, user: u }) =>
      defined({
        name,
        token: u?.token ?? undefined,
        tokenFile: resolved(root, u?.tokenFile ?? u?.['token-file']),
        certData: u?.['client-certificate-data'] ?? undefined,
        certFile: resolved(root, u?.['client-certificate']),
        keyData: u?.['client-key-data'] ?? undefined,
        keyFile: resolved(root, u?.['client-key']),
        username: u?.username ?? undefined,
        password: u?.password ?? undefined,
        impersonateUser: u?.as ?? undefined,
        exec: resolvedExec(root, u?.exec ?? undefined),
        authProvider: u?.['auth-provider']
          ? defined({ name: u['auth-provider'].name, config: u['auth-provider'].config ?? undefined })
          : undefined,
      }),
    ),
    contexts: (doc.contexts ?? []).map(({ name, context: c }) =>
      defined({ name, cluster: c.cluster, user: c.user ?? undefined, namespace: c.namespace ?? undefined }),
    ),
    ...(doc['current-context'] ? { currentContext: doc['current-context'] } : {}),
  };
}
