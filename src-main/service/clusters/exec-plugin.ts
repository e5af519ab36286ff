/**
 * Runs a kubeconfig `exec` credential plugin (aws eks get-token, gke-gcloud-auth-plugin, kubelogin,
 * tsh …) the way client-go does: KUBERNETES_EXEC_INFO in its environment, no terminal, the
 * ExecCredential it prints validated. client-node's ExecAuth is not used because it cannot bound
 * the run (a hung plugin hangs every request forever), cannot kill the process, and keeps its
 * cache private, so a credential the cluster rejects cannot be dropped. Failures are problems
 * that name the plugin and carry its own words.
 */

import { spawn } from 'node:child_process';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { ProblemError } from '../errors';

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

/**
 * Runs the plugin once. It is killed after `timeoutMs` (a 504 naming it); a plugin that cannot
 * be started, exits non-zero or prints no valid credential is a 502 cluster_unauthorized.
 */
export function runExecPlugin(
  config: ExecConfig,
  cluster: ExecClusterInfo,
  timeoutMs: number,
): Promise<ExecCredential> {
  if (config.apiVersion && !SUPPORTED.has(config.apiVersion)) {
    return Promise.reject(failure(config, `uses ${config.apiVersion}, which is no longer supported`));
  }
  if (config.interactiveMode === 'Always') {
    return Promise.reject(failure(config, 'needs an interactive terminal (interactiveMode: Always)'));
  }
  // The plugin gets our environment, as kubectl gives it its own, but not Skiff's own settings
  // (the admin password among them): a plugin is third-party code.
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(process.env)) if (!name.startsWith('SKIFF_')) env[name] = value;
  env.KUBERNETES_EXEC_INFO = execInfo(config, cluster);
  for (const { name, value } of config.env ?? []) env[name] = value;

  return new Promise<ExecCredential>((resolve, reject) => {
    let stdout = '';
    let stderr = '';
    let settled = false;
    let timer: NodeJS.Timeout | undefined;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      fn();
    };
    let child: ReturnType<typeof spawn>;
    try {
      child = spawn(config.command, config.args ?? [], {
        env,
        stdio: ['ignore', 'pipe', 'pipe'],
        windowsHide: true,
      });
    } catch (err) {
      reject(failure(config, `could not be started: ${(err as Error).message}`));
      return;
    }
    timer = setTimeout(() => {
      child.kill('SIGKILL');
      settle(() =>
        reject(
          new ProblemError(
            'cluster_timeout',
            `the credential plugin "${pluginName(config)}" did not answer within ${timeoutMs / 1000} s`,
          ),
        ),
      );
    }, timeoutMs);
    const { stdout: outStream, stderr: errStream } = child as { stdout: Readable; stderr: Readable };
    outStream.setEncoding('utf8');
    errStream.setEncoding('utf8');
    outStream.on('data', (chunk: string) => {
      stdout += chunk;
      if (stdout.length > MAX_STDOUT) {
        child.kill('SIGKILL');
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
      settle(() => reject(failure(config, detail)));
    });
    child.on('close', (code, signal) => {
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
      });
    });
  });
}
