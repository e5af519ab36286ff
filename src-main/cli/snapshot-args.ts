import { z } from 'zod';
import {
  DEFAULT_SNAPSHOT_LOG_LINES,
  MAX_SNAPSHOT_KIND_NAME,
  MAX_SNAPSHOT_KINDS,
  MAX_SNAPSHOT_LOG_LINES,
} from '../../src-shared/contract/snapshot-operations';
import type { LogsMode } from '../service/snapshots/log-targets';
import { CLUSTER_OPTIONS, parseOptions, TIMEOUT_RULE, timeoutMsOf } from './cluster-args';

export interface SnapshotArgs {
  /** The kubeconfig context to capture; `demo` with --demo. */
  context: string;
  /** Where the file goes; absent: `<context>-<time>.skiff` in the current folder. */
  out?: string;
  kubeconfig: string[];
  demo: boolean;
  logLines: number;
  logs: LogsMode;
  /** --kinds: only these kinds' objects, as typed (resolved against the cluster once connected). */
  kinds?: string[];
  timeoutMs: number;
}

export const SNAPSHOT_USAGE = `usage: npm run snapshot -- --context NAME [--out FILE.skiff] [--kubeconfig PATH ...]
       [--log-lines N (0-${MAX_SNAPSHOT_LOG_LINES}, default ${DEFAULT_SNAPSHOT_LOG_LINES})] [--logs all|failing|none] [--timeout SECONDS]
       [--kinds KIND,KIND,... (only these kinds' objects, e.g. pod,configmap,certificate.cert-manager.io; default every kind)]
       npm run snapshot -- --demo [--out FILE.skiff]   (the embedded demo cluster)`;

/** Bad input; its message is one line, printed as is. */
export class SnapshotUsageError extends Error {}

const logLinesSchema = z.coerce.number().int().min(0).max(MAX_SNAPSHOT_LOG_LINES);

/** Parses `npm run snapshot -- …`; returns null for --help. */
export function parseSnapshotArgs(argv: readonly string[]): SnapshotArgs | null {
  let values: ReturnType<typeof parse>['values'];
  try {
    ({ values } = parse(argv));
  } catch (err) {
    // node:util's messages can run over lines; the first says what is wrong.
    throw new SnapshotUsageError((err as Error).message.split('\n')[0]!);
  }
  if (values.help) return null;
  const demo = values.demo ?? false;
  if (demo && values.context !== undefined)
    throw new SnapshotUsageError('--demo captures the embedded demo cluster; leave out --context');
  const context = demo ? 'demo' : values.context;
  if (context === undefined || context.trim() === '')
    throw new SnapshotUsageError('--context NAME is required (or --demo); --help shows the options');
  const logLines = logLinesSchema.safeParse(values['log-lines'] ?? String(DEFAULT_SNAPSHOT_LOG_LINES));
  if (!logLines.success)
    throw new SnapshotUsageError(`--log-lines must be a whole number from 0 to ${MAX_SNAPSHOT_LOG_LINES}`);
  const logs = values.logs ?? 'all';
  if (logs !== 'all' && logs !== 'failing' && logs !== 'none')
    throw new SnapshotUsageError('--logs must be all, failing or none');
  const timeoutMs = timeoutMsOf(values.timeout);
  if (timeoutMs === null) throw new SnapshotUsageError(TIMEOUT_RULE);
  if (values.out !== undefined && values.out.trim() === '')
    throw new SnapshotUsageError('--out needs a file name');
  const kinds = values.kinds === undefined ? undefined : kindsOf(values.kinds);
  return {
    context,
    ...(values.out !== undefined ? { out: values.out } : {}),
    kubeconfig: values.kubeconfig ?? [],
    demo,
    logLines: logLines.data,
    logs,
    ...(kinds ? { kinds } : {}),
    timeoutMs,
  };
}

/** `--kinds a,b --kinds c`: every name once, in order; names are resolved once connected. */
function kindsOf(values: readonly string[]): string[] {
  const names = [...new Set(values.flatMap((v) => v.split(',')).map((n) => n.trim()))];
  if (names.includes(''))
    throw new SnapshotUsageError('--kinds takes kind names separated by commas, e.g. --kinds pod,configmap');
  if (names.length > MAX_SNAPSHOT_KINDS)
    throw new SnapshotUsageError(`--kinds names at most ${MAX_SNAPSHOT_KINDS} kinds`);
  const long = names.find((n) => n.length > MAX_SNAPSHOT_KIND_NAME);
  if (long) throw new SnapshotUsageError(`--kinds: "${long.slice(0, 64)}…" is longer than any kind's name`);
  return names;
}

function parse(argv: readonly string[]) {
  return parseOptions(argv, {
    ...CLUSTER_OPTIONS,
    context: { type: 'string' },
    out: { type: 'string', short: 'o' },
    'log-lines': { type: 'string' },
    logs: { type: 'string' },
    kinds: { type: 'string', multiple: true },
    help: { type: 'boolean', short: 'h' },
  });
}
