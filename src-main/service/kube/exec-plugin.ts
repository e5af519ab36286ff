/**
 * Runs a kubeconfig `exec` credential plugin (aws eks get-token, gke-gcloud-auth-plugin, kubelogin,
 * tsh …) the way client-go does: KUBERNETES_EXEC_INFO in its environment, no terminal, the
 * ExecCredential it prints validated. client-node's ExecAuth is not used because it cannot bound
 * the run (a hung plugin hangs every request forever), cannot kill the process, and keeps its
 * cache private, so a credential the cluster rejects cannot be dropped. Failures are problems
 * that name the plugin and carry its own words. The plugin leads a process group of its own, and
 * the whole group is ended when the plugin exits, times out or the service closes: nothing a
 * plugin starts outlives it (process-group.ts), and the plugin exiting, not its pipes closing,
 * ends the run.
 */

import type { ChildProcess } from 'node:child_process';
import type { Readable } from 'node:stream';
import { finished } from 'node:stream/promises';
import { z } from 'zod';
import { ProblemError } from '../errors';
import { DEFAULT_GROUP_END, type GroupEndOptions, ProcessGroup, spawnInGroup } from './process-group';

export const ExecConfigSchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).nullish(),
  env: z.array(z.object({ name: z.string(), value: z.string() })).nullish(),
  apiVersion: z.string().nullish(),
  installHint: z.string().nullish(),
  provideClusterInfo: z.boolean().nullish(),
  interactiveMode: z.enum(['Never', 'IfAvailable', 'Always']).nullish(),
});
export type ExecConfig = z.infer<typeof ExecConfigSchema>;

const ExecCredentialSchema = z.object({
  apiVersion: z.string().optional(),
  kind: z.literal('ExecCredential'),
  status: z.object({
    token: z.string().optional(),
    clientCertificateData: z.string().optional(),
    clientKeyData: z.string().optional(),
    expirationTimestamp: z.string().optional(),
  }),
});

export interface ExecCredential {
  token?: string;
  clientCertificateData?: string;
  clientKeyData?: string;
  /** Epoch ms; undefined: valid until the cluster rejects it. */
  expiresAt?: number;
}

/** What a plugin asked for provideClusterInfo is told about the cluster. */
export interface ExecClusterInfo {
  server: string;
  'certificate-authority-data'?: string;
  'insecure-skip-tls-verify'?: boolean;
  'tls-server-name'?: string;
  'proxy-url'?: string;
}

const DEFAULT_API_VERSION = 'client.authentication.k8s.io/v1';
const SUPPORTED = new Set([DEFAULT_API_VERSION, 'client.authentication.k8s.io/v1beta1']);
const MAX_STDOUT = 1024 * 1024;
const MAX_MESSAGE = 1000;

export function pluginName(config: ExecConfig): string {
  return config.command;
}

function failure(config: ExecConfig, detail: string): ProblemError {
  return new ProblemError('cluster_unauthorized', `the credential plugin "${pluginName(config)}" ${detail}`);
}

function execInfo(config: ExecConfig, cluster: ExecClusterInfo): string {
  return JSON.stringify({
    apiVersion: config.apiVersion ?? DEFAULT_API_VERSION,
    kind: 'ExecCredential',
    spec: { interactive: false, ...(config.provideClusterInfo ? { cluster } : {}) },
  });
}

function parseCredential(config: ExecConfig, stdout: string): ExecCredential {
  let json: unknown;
  try {
    json = JSON.parse(stdout);
  } catch {
    throw failure(config, `printed no JSON ExecCredential: ${stdout.trim().slice(0, 200) || '(nothing)'}`);
  }
  const parsed = ExecCredentialSchema.safeParse(json);
  if (!parsed.success) {
    throw failure(config, `printed an invalid ExecCredential: ${parsed.error.issues[0]?.message ?? ''}`);
  }
  const want = config.apiVersion ?? DEFAULT_API_VERSION;
  if (parsed.data.apiVersion !== undefined && parsed.data.apiVersion !== want) {
    throw failure(config, `answered with ${parsed.data.apiVersion}, but the kubeconfig asks for ${want}`);
  }
  const { token, clientCertificateData, clientKeyData, expirationTimestamp } = parsed.data.status;
  if (!token && !(clientCertificateData && clientKeyData)) {
    throw failure(config, 'returned neither a token nor a client certificate and key');
  }
  let expiresAt: number | undefined;
  if (expirationTimestamp) {
    expiresAt = Date.parse(expirationTimestamp);
    if (Number.isNaN(expiresAt)) {
      throw failure(config, `returned an unreadable expirationTimestamp "${expirationTimestamp}"`);
    }
  }
  return {
    ...(token ? { token } : {}),
    ...(clientCertificateData && clientKeyData ? { clientCertificateData, clientKeyData } : {}),
    ...(expiresAt !== undefined ? { expiresAt } : {}),
  };
}

/** One run of a plugin: its credential, and the end of its process group. */
export interface PluginRun {
  readonly credential: Promise<ExecCredential>;
  /** Resolves once the plugin and everything left in its process group are gone (or killed). */
  readonly ended: Promise<void>;
  /** Ends the run now (the service closes): a credential still awaited is refused; resolves as `ended`. */
  stop(): Promise<void>;
}

/** After the group ended, how long pipes a process outside it still holds are read before the run ends. */
const DRAIN_MS = 100;

/** Runs the plugin once; see startExecPlugin. */
export function runExecPlugin(
  config: ExecConfig,
  cluster: ExecClusterInfo,
  timeoutMs: number,
): Promise<ExecCredential> {
  return startExecPlugin(config, cluster, timeoutMs).credential;
}

/**
 * Starts the plugin in a process group of its own. It is ended after `timeoutMs` (a 504 naming
 * it); a plugin that cannot be started, exits non-zero or prints no valid credential is a 502
 * cluster_unauthorized. The plugin exiting ends the run: its group is ended then too (SIGTERM,
 * SIGKILL after the grace), so nothing it started outlives it, and a helper that keeps its stdout
 * open cannot hold the read.
 */
export function startExecPlugin(
  config: ExecConfig,
  cluster: ExecClusterInfo,
  timeoutMs: number,
  groupEnd: GroupEndOptions = DEFAULT_GROUP_END,
): PluginRun {
  const refused = (err: ProblemError): PluginRun => {
    const credential = Promise.reject(err);
    const ended = Promise.resolve();
    return { credential, ended, stop: () => ended };
  };
  if (config.apiVersion && !SUPPORTED.has(config.apiVersion)) {
    return refused(failure(config, `uses ${config.apiVersion}, which is no longer supported`));
  }
  if (config.interactiveMode === 'Always') {
    return refused(failure(config, 'needs an interactive terminal (interactiveMode: Always)'));
  }
  // The plugin gets our environment, as kubectl gives it its own, but not Skiff's own settings
  // (the admin password among them): a plugin is third-party code.
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SKIFF_')) env[name] = value;
  env.KUBERNETES_EXEC_INFO = execInfo(config, cluster);
  for (const { name, value } of config.env ?? []) env[name] = value;

  let child: ChildProcess;
  try {
    child = spawnInGroup(config.command, config.args ?? [], {
      env,
      stdio: ['ignore', 'pipe', 'pipe'],
      windowsHide: true,
    });
  } catch (err) {
    return refused(failure(config, `could not be started: ${(err as Error).message}`));
  }
  const group = child.pid === undefined ? undefined : new ProcessGroup(child.pid, groupEnd);
  let endGroup!: () => void;
  const ended = new Promise<void>((resolve) => {
    endGroup = () => {
      void (group ? group.end() : Promise.resolve()).then(resolve);
    };
  });
  const { stdout: outStream, stderr: errStream } = child as { stdout: Readable; stderr: Readable };
  // Once the group is gone, what is left in the pipes is read for a moment; pipes a process outside
  // the group still holds open are then closed, so they cannot hold the run.
  void ended
    .then(() => new Promise<void>((r) => setTimeout(r, DRAIN_MS)))
    .then(() => {
      outStream.destroy();
      errStream.destroy();
    });

  let settle!: (fn: () => void) => void;
  let stopped!: () => void;
  const credential = new Promise<ExecCredential>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    stopped = () =>
      settle(() => reject(new ProblemError('cluster_unreachable', 'the cluster connection was closed')));
    const timer = setTimeout(() => {
      endGroup();
      settle(() =>
        reject(
          new ProblemError(
            'cluster_timeout',
            `the credential plugin "${pluginName(config)}" did not answer within ${timeoutMs / 1000} s`,
          ),
        ),
      );
    }, timeoutMs);
    outStream.setEncoding('utf8');
    errStream.setEncoding('utf8');
    outStream.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > MAX_STDOUT) {
        endGroup();
        settle(() => reject(failure(config, 'printed more than 1 MiB')));
      }
    });
    // Only the end of stderr is kept: the plugin's last words are the reason it gives.
    errStream.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-4 * MAX_MESSAGE);
    });
    child.on('error', (err: NodeJS.ErrnoException) => {
      const hint = config.installHint ? ` ${config.installHint.trim()}` : '';
      const detail =
        err.code === 'ENOENT'
          ? `was not found (is it installed and on the PATH?).${hint}`
          : err.code === 'EACCES'
            ? 'cannot be run (permission denied)'
            : `could not be started: ${err.message}`;
      endGroup();
      settle(() => reject(failure(config, detail)));
    });
    child.on('exit', (code, signal) => {
      endGroup();
      // What the plugin printed is read to the end of its pipes; a pipe a process outside the group
      // keeps open is closed shortly after the group is gone, which ends the read too.
      const drained = Promise.all([finished(outStream), finished(errStream)]).catch(() => undefined);
      void drained.then(() =>
        settle(() => {
          if (code !== 0) {
            const message = stderr.trim().slice(-MAX_MESSAGE) || 'no message';
            const how = signal ? `was killed by ${signal}` : `failed (exit code ${code})`;
            reject(failure(config, `${how}: ${message}`));
            return;
          }
          try {
            resolve(parseCredential(config, stdout));
          } catch (err) {
            reject(err);
          }
        }),
      );
    });
  });
  // A run nobody waits for any more (stopped as the service closes) must not end the process.
  credential.catch(() => {});
  return {
    credential,
    ended,
    stop: () => {
      stopped();
      endGroup();
      return ended;
    },
  };
}
