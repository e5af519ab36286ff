// `npm run snapshot -- --context NAME --out FILE`: one cluster into one `.skiff` file, from a terminal.
import '../service/heap-profile';
import { existsSync, statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import type { SnapshotGap, SnapshotProgress } from '../../src-shared/contract/snapshot-models';
import { ClusterConnection } from '../service/clusters/cluster';
import { slugify } from '../service/clusters/slug';
import { loadClusterSources } from '../service/clusters/sources';
import { ProblemError } from '../service/errors';
import { KubeconfigError } from '../service/kube/kubeconfig-file';
import { silentLogger } from '../service/logger';
import { SERVICE_VERSION } from '../service/operations/index';
import { CaptureFailed, captureSnapshot } from '../service/snapshots/capture';
import { snapshotFileName } from '../service/snapshots/jobs';
import { clusterSource } from '../service/snapshots/source';
import { parseSnapshotArgs, SNAPSHOT_USAGE, SnapshotUsageError } from './snapshot-args';
import { startProgress } from './snapshot-progress';

/** Exit codes: 0 written (gaps or not), 1 the capture failed, 2 bad input, 130 interrupted. */
async function main(): Promise<number> {
  const args = parseSnapshotArgs(process.argv.slice(2));
  if (args === null) {
    process.stdout.write(`${SNAPSHOT_USAGE}\n`);
    return 0;
  }
  for (const p of args.kubeconfig)
    if (!existsSync(p)) throw new SnapshotUsageError(`--kubeconfig ${p}: no such file`);
  const sources = await loadClusterSources(args.kubeconfig, args.demo, [], process.env, {});
  const source = args.demo ? sources.demo : sources.contexts.find((c) => c.context === args.context);
  try {
    if (!source) {
      const known = sources.contexts.map((c) => c.context);
      const where = sources.paths.length > 0 ? sources.paths.join(', ') : 'no kubeconfig file found';
      throw new SnapshotUsageError(
        `no context "${args.context}" in ${where}${known.length > 0 ? ` (contexts: ${known.join(', ')})` : ''}`,
      );
    }
    const started = Date.now();
    const out = resolve(args.out ?? snapshotFileName(args.context, started));
    if (!existsSync(dirname(out))) throw new SnapshotUsageError(`--out ${args.out}: no such folder`);
    if (existsSync(out) && statSync(out).isDirectory())
      throw new SnapshotUsageError(`--out ${args.out} is a folder; name the file`);
    return await capture(args, source, out, started);
  } finally {
    await sources.simulator?.close();
  }
}

async function capture(
  args: NonNullable<ReturnType<typeof parseSnapshotArgs>>,
  source: NonNullable<Awaited<ReturnType<typeof loadClusterSources>>['demo']>,
  out: string,
  started: number,
): Promise<number> {
  const cluster = new ClusterConnection(slugify(source.context), source, {
    timeoutMs: args.timeoutMs,
    logger: silentLogger(),
  });
  const abort = new AbortController();
  const interrupt = () => abort.abort(new Error('interrupted'));
  process.once('SIGINT', interrupt);
  process.once('SIGTERM', interrupt);
  const progress: SnapshotProgress = { objects: 0, events: 0, podLogsDone: 0, podLogsTotal: 0 };
  const gaps: SnapshotGap[] = [];
  let bar: { stop(): void } | undefined;
  try {
    // Names are bad input before anything is taken: no progress line for them.
    const kinds = args.kinds ? await resolveKinds(cluster, args.kinds, abort.signal) : undefined;
    bar = startProgress(process.stderr, args.context, progress);
    const result = await captureSnapshot(clusterSource(cluster), {
      logLines: args.logLines,
      logs: args.logs,
      ...(kinds ? { kinds } : {}),
      skiffVersion: SERVICE_VERSION,
      tempPath: join(dirname(out), `.${basename(out)}.partial-${process.pid}`),
      finalPath: out,
      progress,
      gaps,
      signal: abort.signal,
      startedMs: started,
    });
    bar.stop();
    for (const g of gaps)
      process.stderr.write(`missing: ${g.part}${g.target ? ` ${g.target}` : ''}: ${g.reason}\n`);
    process.stdout.write(
      `wrote ${out} (${result.sizeBytes.toLocaleString('en-US')} bytes, ${gaps.length} parts missing)\n`,
    );
    return 0;
  } catch (err) {
    bar?.stop();
    if (abort.signal.aborted) {
      process.stderr.write('skiff snapshot: interrupted; nothing was written\n');
      return 130;
    }
    if (err instanceof CaptureFailed) {
      process.stderr.write(`skiff snapshot: ${err.message}\n`);
      return 1;
    }
    throw err;
  } finally {
    process.off('SIGINT', interrupt);
    process.off('SIGTERM', interrupt);
    await cluster.close();
  }
}

/** --kinds as the cluster names them; a name it does not serve is bad input (exit 2), as a 400 is. */
async function resolveKinds(cluster: ClusterConnection, names: readonly string[], signal: AbortSignal) {
  try {
    return await Promise.all(names.map((name) => cluster.kind(name, signal)));
  } catch (err) {
    if (err instanceof ProblemError && err.status === 400)
      throw new SnapshotUsageError(`--kinds: ${err.message}`);
    throw err;
  }
}

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    if (err instanceof SnapshotUsageError || err instanceof KubeconfigError) {
      process.stderr.write(`skiff snapshot: ${err.message}\n`);
      process.exit(2);
    }
    process.stderr.write(`skiff snapshot: ${(err as Error).message ?? String(err)}\n`);
    process.exit(1);
  },
);
