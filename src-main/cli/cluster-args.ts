import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';
import { z } from 'zod';

/**
 * What `serve` and `snapshot` parse alike: strict options with no positionals, and the options of
 * every command that reaches clusters (kubeconfig files, the embedded demo cluster, the per-request
 * timeout), read and checked the same way.
 */
export const CLUSTER_OPTIONS = {
  kubeconfig: { type: 'string', multiple: true },
  demo: { type: 'boolean' },
  timeout: { type: 'string' },
} as const satisfies ParseArgsOptionsConfig;

/** Parses `argv` against `options`; an unknown option or a stray word throws node:util's error. */
export function parseOptions<O extends ParseArgsOptionsConfig>(argv: readonly string[], options: O) {
  return parseArgs({ args: [...argv], strict: true, allowPositionals: false, options });
}

const timeoutSchema = z.coerce.number().positive().max(600);

export const TIMEOUT_RULE = '--timeout must be a number of seconds from 0 to 600';

/** --timeout SECONDS (default 10) in milliseconds; null when it breaks TIMEOUT_RULE. */
export function timeoutMsOf(text: string | undefined): number | null {
  const timeout = timeoutSchema.safeParse(text ?? '10');
  return timeout.success ? timeout.data * 1000 : null;
}
