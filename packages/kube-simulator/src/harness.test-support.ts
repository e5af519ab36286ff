/** Shared helpers for the simulator's own tests (client-node against a live simulator). */

import { Writable } from 'node:stream';
import { ApiException, KubeConfig } from '@kubernetes/client-node';
import { type Simulator, type SimulatorOptions, startSimulator } from './index';

export interface Harness {
  sim: Simulator;
  kc: KubeConfig;
}

export async function harness(opts: SimulatorOptions = {}): Promise<Harness> {
  const sim = await startSimulator(opts);
  const kc = new KubeConfig();
  kc.loadFromString(sim.kubeconfigYaml());
  return { sim, kc };
}

/** Resolves with the ApiException a call rejects with (fails the test if it resolves). */
export async function apiError(call: Promise<unknown>): Promise<ApiException<unknown>> {
  try {
    await call;
  } catch (err) {
    if (err instanceof ApiException) return err;
    throw err;
  }
  throw new Error('expected the call to fail');
}

/** Parses the raw Status body of an ApiException. */
export function statusOf(err: ApiException<unknown>): {
  kind: string;
  code: number;
  reason: string;
  message: string;
} {
  return JSON.parse(String(err.body));
}

export async function until(check: () => boolean, timeoutMs = 5000): Promise<void> {
  const start = Date.now();
  while (!check()) {
    if (Date.now() - start > timeoutMs) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
}

/** A Writable collecting text, with a promise for the end of the stream. */
export function sink(): { stream: Writable; text: () => string; ended: Promise<void> } {
  let buf = '';
  let resolve: () => void = () => {};
  const ended = new Promise<void>((r) => {
    resolve = r;
  });
  const stream = new Writable({
    write(chunk: Buffer, _enc, cb) {
      buf += chunk.toString('utf8');
      cb();
    },
    final(cb) {
      resolve();
      cb();
    },
  });
  return { stream, text: () => buf, ended };
}

export function authHeaders(): Record<string, string> {
  return { Authorization: 'Bearer skiff-demo-token' };
}
