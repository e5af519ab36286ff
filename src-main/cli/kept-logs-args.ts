/**
 * `--kept-logs failed|all|off`, `--kept-log-lines N` and `--kept-logs-max-bytes SIZE` (else
 * $SKIFF_KEPT_LOGS, $SKIFF_KEPT_LOG_LINES, $SKIFF_KEPT_LOGS_MAX_BYTES): which ended container runs
 * keep their logs, how many last lines of each, and how many bytes per cluster (history/kept-logs/).
 *
 * Rules: a flag wins over its variable; an empty variable is unset; a value out of its range is
 * refused naming the flag (or the variable it came from); absent values take the defaults of
 * history/kept-logs/options.ts.
 */
import {
  KEPT_LOGS_MODES,
  type KeptLogsMode,
  type KeptLogsOptions,
  MAX_KEPT_LOG_LINES,
  MIN_KEPT_LOGS_BYTES,
} from '../service/history/kept-logs/options';

export const KEPT_LOGS_FLAGS = {
  'kept-logs': { type: 'string' },
  'kept-log-lines': { type: 'string' },
  'kept-logs-max-bytes': { type: 'string' },
} as const;

export const KEPT_LOGS_USAGE =
  '[--kept-logs failed|all|off] [--kept-log-lines 500] [--kept-logs-max-bytes 1GiB]';

export interface KeptLogsEnv {
  keptLogs?: string | undefined;
  keptLogLines?: string | undefined;
  keptLogsMaxBytes?: string | undefined;
}

const UNITS: Record<string, number> = {
  '': 1,
  B: 1,
  KiB: 1024,
  MiB: 1024 ** 2,
  GiB: 1024 ** 3,
  TiB: 1024 ** 4,
};

/** `1GiB`, `512MiB`, `1048576`: bytes; undefined when it is no size. */
function sizeOf(text: string): number | undefined {
  const m = /^(\d{1,16})\s*(B|KiB|MiB|GiB|TiB)?$/.exec(text.trim());
  if (!m) return undefined;
  const bytes = Number(m[1]) * UNITS[m[2] ?? '']!;
  return Number.isSafeInteger(bytes) ? bytes : undefined;
}

/** The value of a flag, else of its variable, with the name to refuse it by. */
function pick(flag: string | undefined, flagName: string, env: string | undefined, envName: string) {
  if (flag !== undefined) return { text: flag, name: flagName };
  if (env) return { text: env, name: envName };
  return undefined;
}

/** The kept-logs options the flags (or variables) give; throws an Error saying the rule broken. */
export function keptLogsArgs(
  values: {
    'kept-logs'?: string | undefined;
    'kept-log-lines'?: string | undefined;
    'kept-logs-max-bytes'?: string | undefined;
  },
  env: KeptLogsEnv,
): Partial<KeptLogsOptions> {
  const out: Partial<KeptLogsOptions> = {};
  const mode = pick(values['kept-logs'], '--kept-logs', env.keptLogs, 'SKIFF_KEPT_LOGS');
  if (mode) {
    if (!(KEPT_LOGS_MODES as readonly string[]).includes(mode.text))
      throw new Error(`${mode.name} must be failed, all or off (got ${JSON.stringify(mode.text)})`);
    out.mode = mode.text as KeptLogsMode;
  }
  const lines = pick(values['kept-log-lines'], '--kept-log-lines', env.keptLogLines, 'SKIFF_KEPT_LOG_LINES');
  if (lines) {
    const n = /^\d{1,9}$/.test(lines.text) ? Number(lines.text) : Number.NaN;
    if (!(n >= 1 && n <= MAX_KEPT_LOG_LINES))
      throw new Error(`${lines.name} must be a whole number from 1 to ${MAX_KEPT_LOG_LINES}`);
    out.lines = n;
  }
  const bytes = pick(
    values['kept-logs-max-bytes'],
    '--kept-logs-max-bytes',
    env.keptLogsMaxBytes,
    'SKIFF_KEPT_LOGS_MAX_BYTES',
  );
  if (bytes) {
    const n = sizeOf(bytes.text);
    if (n === undefined || n < MIN_KEPT_LOGS_BYTES)
      throw new Error(`${bytes.name} must be a size of at least 1MiB, such as 1GiB, 512MiB or 1048576`);
    out.maxBytes = n;
  }
  return out;
}
