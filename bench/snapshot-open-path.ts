/**
 * One way of opening a snapshot, run in a process of its own so its memory is its own figure
 * (bench/snapshot-open.ts runs it): `new` is how the service opens one now (issue 23 §4: the
 * cluster connection pages through the file), `old` is how it did before (the file's content
 * handed to an embedded simulator, listed by the connection over loopback HTTP). Both open the
 * same checked file, fill the pod cache and read a first page (what a user sees first), then fill
 * the cache of every one of the nine kinds and the events. Prints one JSON line of figures.
 *
 *   node --expose-gc --import tsx bench/snapshot-open-path.ts FILE new|old
 */
import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { startSimulator } from '@skiff/kube-simulator';
import { ClusterConnection } from '../src-main/service/clusters/cluster';
import { kindOfDiscovered } from '../src-main/service/clusters/kind-info';
import { contextsFromYaml } from '../src-main/service/kube/kubeconfig';
import { silentLogger } from '../src-main/service/logger';
import { checkSnapshot } from '../src-main/service/snapshots/inspect';
import { openSnapshotFile } from '../src-main/service/snapshots/reader';
import { snapshotCluster } from '../src-main/service/snapshots/snapshot-cluster';
import { snapshotContent } from '../src-main/service/snapshots/snapshot-content';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../src-shared/kube/kinds';

export interface OpenPathFigures {
  way: 'new' | 'old';
  /** Open to the first page of pods read from the filled pod cache. */
  firstPageMs: number;
  /** Then every kind's cache and the events' filled. */
  allMs: number;
  cpuMs: number;
  /** VmHWM of this process, and its VmRSS before the open. */
  peakMiB: number;
  baseMiB: number;
  /** After a full GC, with every cache full. */
  settledMiB: number;
  heapMiB: number;
}

const kib = (field: string) =>
  Number(new RegExp(`${field}:\\s+(\\d+)`).exec(readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) / 1024;

async function main() {
  const [file, way] = process.argv.slice(2) as [string, 'new' | 'old'];
  if (!file || (way !== 'new' && way !== 'old')) throw new Error('usage: snapshot-open-path.ts FILE new|old');
  const checked = await checkSnapshot(file);
  globalThis.gc?.();
  const baseMiB = kib('VmRSS');
  const opts = { timeoutMs: 30_000, logger: silentLogger(), listChunk: 1_000 };
  const started = performance.now();
  const cpu = process.cpuUsage();
  const fileOf = openSnapshotFile(file, checked);
  let cluster: ClusterConnection;
  let stop: () => Promise<void>;
  if (way === 'new') {
    const frozen = snapshotCluster({
      file: fileOf,
      missing: checked.missing,
      history: () => Promise.reject(new Error('not measured')),
      logger: silentLogger(),
    });
    const { context, server } = frozen.facts;
    cluster = new ClusterConnection(
      'bench',
      {
        context,
        server,
        config: {
          context: { name: context, cluster: context },
          cluster: { name: context, server, skipTLSVerify: false },
          user: null,
        },
      },
      { ...opts, frozen, kinds: frozen.kindRows.map((k) => kindOfDiscovered({ ...k, resource: k.plural })) },
    );
    stop = async () => {};
  } else {
    // As snapshots/open.ts did before issue 23: the file's content served by a frozen simulator.
    const sim = await startSimulator({
      host: '127.0.0.1',
      // Plain HTTP on loopback, as the snapshot's simulator served it then.
      tls: false,
      tickMs: false,
      token: randomBytes(24).toString('base64url'),
      content: snapshotContent(fileOf),
    });
    cluster = new ClusterConnection('bench', contextsFromYaml(sim.kubeconfigYaml('bench'))[0]!, opts);
    stop = () => sim.close();
  }
  const pods = cluster.resources(RESOURCE_KINDS.pod);
  await pods.acquire();
  const first = pods
    .read()
    .view.all.slice(0, 50)
    .map((e) => e.json);
  if (first.length === 0) throw new Error('no pods in the snapshot');
  const firstPageMs = performance.now() - started;
  await Promise.all([
    ...RESOURCE_TYPES.map((t) => cluster.resources(RESOURCE_KINDS[t]).acquire()),
    cluster.events().acquire(),
  ]);
  const allMs = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const peakMiB = kib('VmHWM');
  globalThis.gc?.();
  const figures: OpenPathFigures = {
    way,
    firstPageMs,
    allMs,
    cpuMs: (used.user + used.system) / 1000,
    peakMiB,
    baseMiB,
    settledMiB: kib('VmRSS'),
    heapMiB: process.memoryUsage().heapUsed / 2 ** 20,
  };
  process.stdout.write(`${JSON.stringify(figures)}\n`);
  await cluster.close();
  await stop();
  fileOf.close();
}

main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
