/**
 * The credentials one cluster's requests carry, worked out per request: Basic for
 * username/password, Impersonate-User, a bearer token (static, token-file or an auth-provider,
 * through client-node's authenticators) or an exec plugin's credential. Exec credentials are
 * cached until their expirationTimestamp (without one, until the cluster rejects them), and one
 * plugin run serves every request that waits for it, so fifty concurrent requests start one
 * process, not fifty. Every wait is bounded by the request's own deadline; every failure is a
 * problem naming the plugin or provider, never a raw error.
 *
 * A tokenFile (a pod's service-account token, which rotates) is read again every minute, as
 * kubectl does, and at once when the cluster answers 401 to the token held: a rotated token is
 * then used on the retry instead of failing until the minute is up.
 *
 * When a plugin may run at all (one run at a time, none during the backoff after a failure, none
 * after close) is plugin-runs.ts's to decide.
 */

import { readFileSync } from 'node:fs';
import type { RequestOptions } from 'node:https';
import type { KubeConfig } from '@kubernetes/client-node';
import { ProblemError } from '../errors';
import {
  type ExecClusterInfo,
  type ExecConfig,
  ExecConfigSchema,
  type ExecCredential,
  pluginName,
} from './exec-plugin';
import type { ContextConfig } from './kubeconfig';
import type { KubeUser } from './kubeconfig-file';
import { type PluginRunOptions, PluginRuns } from './plugin-runs';
import { type ClientPair, checkClientPair } from './tls-options';

/** kubectl re-reads a token file about once a minute, so a rotated token is picked up. */
const TOKEN_FILE_TTL_MS = 60_000;

export interface RequestCredential {
  headers: Record<string, string>;
  /** A client certificate an exec plugin returned; it replaces the kubeconfig's. */
  clientPair?: ClientPair;
  /** The cached exec credential this request used, so a 401 drops exactly that one. */
  exec?: CachedExec;
  /** The token read from the user's tokenFile, so a 401 can tell whether the file has a newer one. */
  fileToken?: string;
}

interface CachedExec {
  credential: ExecCredential;
  pair?: ClientPair;
}

/** When an exec plugin may run (plugin-runs.ts). */
export type CredentialOptions = PluginRunOptions;

function untilAborted<T>(promise: Promise<T>, signal: AbortSignal): Promise<T> {
  if (signal.aborted) return Promise.reject(signal.reason);
  return new Promise<T>((resolve, reject) => {
    const onAbort = () => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (err: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(err);
      },
    );
  });
}

function execConfigOf(user: KubeUser): ExecConfig | { invalid: string } | null {
  const raw: unknown = user.exec ?? user.authProvider?.config?.exec;
  if (raw === null || raw === undefined) return null;
  const parsed = ExecConfigSchema.safeParse(raw);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  return { invalid: `${issue?.path.join('.') || 'exec'}: ${issue?.message ?? 'invalid'}` };
}

export class ClusterCredentials {
  private readonly user: KubeUser | null;
  private readonly exec: ExecConfig | { invalid: string } | null;
  /** When the exec plugin runs; one run serves every request waiting meanwhile. */
  private readonly runs: PluginRuns<CachedExec> | undefined;
  private cached: CachedExec | undefined;
  private tokenFromFile: { token: string; readAt: number } | undefined;
  /** client-node, loaded only for auth-provider users: its authenticators keep refresh state. */
  private providerConfig: Promise<KubeConfig> | undefined;

  constructor(
    private readonly config: ContextConfig,
    opts: CredentialOptions = {},
  ) {
    this.user = config.user;
    const exec = this.user ? execConfigOf(this.user) : null;
    this.exec = exec;
    if (exec && !('invalid' in exec)) {
      const plugin = {
        exec,
        cluster: () => this.clusterInfo(),
        accept: (c: ExecCredential) => this.accept(exec, c),
      };
      this.runs = new PluginRuns(plugin, opts);
    }
  }

  /** Ends a plugin run still going (its whole process group) and starts no other. */
  async close(): Promise<void> {
    await this.runs?.close();
  }

  /** What the provider of these credentials is called in messages. */
  private describe(): string {
    if (this.exec && !('invalid' in this.exec)) return `the credential plugin "${pluginName(this.exec)}"`;
    const provider = this.user?.authProvider?.name;
    return provider ? `the auth-provider "${provider}"` : 'the kubeconfig user';
  }

  /**
   * The credential for one request. `signal` carries the request's deadline (`timedOut` tells a
   * deadline from the caller giving up); past it the wait ends with a 504 naming the provider.
   */
  async resolve(signal: AbortSignal, timedOut: () => boolean, timeoutMs: number): Promise<RequestCredential> {
    const headers: Record<string, string> = {};
    const user = this.user;
    if (!user) return { headers };
    if (user.username) {
      headers.Authorization = `Basic ${Buffer.from(`${user.username}:${user.password ?? ''}`).toString('base64')}`;
    }
    if (user.impersonateUser) headers['Impersonate-User'] = user.impersonateUser;
    try {
      if (this.exec) {
        const exec = await untilAborted(this.execCredential(timeoutMs), signal);
        const { token } = exec.credential;
        if (token) headers.Authorization = `Bearer ${token}`;
        return { headers, exec, ...(exec.pair ? { clientPair: exec.pair } : {}) };
      }
      if (user.authProvider) {
        // client-node's authenticators (oidc, azure, gcp, tokenFile) keep their own refresh state;
        // applyToHTTPSOptions is the public way to run them.
        const opts: RequestOptions = {};
        const kubeConfig = await untilAborted(this.authProviderConfig(), signal);
        await untilAborted(kubeConfig.applyToHTTPSOptions(opts), signal);
        for (const [name, value] of Object.entries(opts.headers ?? {})) headers[name] = String(value);
      } else if (user.token) {
        headers.Authorization = `Bearer ${user.token}`;
      } else if (user.tokenFile) {
        const fileToken = this.fileToken(user.tokenFile);
        headers.Authorization = `Bearer ${fileToken}`;
        return { headers, fileToken };
      }
      return { headers };
    } catch (err) {
      if (err instanceof ProblemError) throw err;
      if (timedOut()) {
        throw new ProblemError(
          'cluster_timeout',
          `${this.describe()} did not answer within ${timeoutMs / 1000} s`,
        );
      }
      if (signal.aborted) throw err;
      const message = err instanceof Error ? err.message : String(err);
      throw new ProblemError('cluster_unauthorized', `${this.describe()} failed: ${message}`);
    }
  }

  /**
   * After the cluster answered 401 to `used`: drops that exec credential so the next request runs
   * the plugin again. True when a retry can bring a different credential.
   */
  invalidate(used: RequestCredential): boolean {
    if (used.fileToken !== undefined && this.user?.tokenFile) {
      // Read again now: a retry is worth it only when the file holds another token.
      this.tokenFromFile = undefined;
      try {
        return this.fileToken(this.user.tokenFile) !== used.fileToken;
      } catch {
        return false;
      }
    }
    if (!used.exec) return false;
    if (this.cached === used.exec) this.cached = undefined;
    return true;
  }

  private execCredential(timeoutMs: number): Promise<CachedExec> {
    const cached = this.cached;
    if (cached && (cached.credential.expiresAt === undefined || cached.credential.expiresAt > Date.now())) {
      return Promise.resolve(cached);
    }
    this.cached = undefined;
    if (this.runs) return this.runs.run(timeoutMs);
    const invalid = this.exec && 'invalid' in this.exec ? this.exec.invalid : 'no exec plugin';
    return Promise.reject(
      new ProblemError('cluster_unauthorized', `the kubeconfig's exec stanza is invalid: ${invalid}`),
    );
  }

  /** The plugin's credential as requests carry it, its client certificate checked first. */
  private accept(exec: ExecConfig, credential: ExecCredential): CachedExec {
    const { clientCertificateData: cert, clientKeyData: key } = credential;
    const entry: CachedExec = { credential };
    if (cert && key) {
      entry.pair = { cert: Buffer.from(cert), key: Buffer.from(key) };
      checkClientPair(entry.pair, `from the credential plugin "${pluginName(exec)}"`);
    }
    this.cached = entry;
    return entry;
  }

  private fileToken(path: string): string {
    const now = Date.now();
    const held = this.tokenFromFile;
    if (held && now - held.readAt < TOKEN_FILE_TTL_MS) return held.token;
    let token: string;
    try {
      token = readFileSync(path, 'utf8').trim();
    } catch (err) {
      throw new ProblemError(
        'cluster_unauthorized',
        `the kubeconfig's tokenFile ${path} could not be read (${(err as NodeJS.ErrnoException).code})`,
      );
    }
    this.tokenFromFile = { token, readAt: now };
    return token;
  }

  /** A client-node KubeConfig holding just this context, built on first use. */
  private authProviderConfig(): Promise<KubeConfig> {
    this.providerConfig ??= import('@kubernetes/client-node').then(({ KubeConfig }) => {
      const { context, cluster, user } = this.config;
      const kubeConfig = new KubeConfig();
      kubeConfig.loadFromOptions({
        clusters: [cluster],
        users: user ? [user] : [],
        contexts: [context],
        currentContext: context.name,
      });
      return kubeConfig;
    });
    return this.providerConfig;
  }

  private clusterInfo(): ExecClusterInfo {
    const cluster = this.config.cluster;
    let caData = cluster.caData;
    if (!caData && cluster.caFile) {
      try {
        caData = readFileSync(cluster.caFile).toString('base64');
      } catch {
        // The plugin learns of no CA; the request itself reports the unreadable file.
      }
    }
    return {
      server: cluster.server,
      ...(caData ? { 'certificate-authority-data': caData } : {}),
      ...(cluster.skipTLSVerify ? { 'insecure-skip-tls-verify': true } : {}),
      ...(cluster.tlsServerName ? { 'tls-server-name': cluster.tlsServerName } : {}),
      ...(cluster.proxyUrl ? { 'proxy-url': cluster.proxyUrl } : {}),
    };
  }
}
