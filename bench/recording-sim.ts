/**
 * The recording bench's cluster, in its own process (`node --import tsx bench/recording-sim.ts`):
 * the demo simulator at `--pods` pods, frozen (no ticker), plus a loopback control endpoint that
 * makes changes to its pods at a steady rate, as a busy cluster would: `POST /changes?rate=100&
 * seconds=30` answers `{changes, ms}` once they are all made.
 *
 * Rules: loopback only, bounded (rate ≤ 1,000/s, ≤ 120 s); every change goes through the store's
 * upsert, so watches see a MODIFIED with a new resourceVersion, exactly as the apiserver sends one;
 * the changes cycle through what real pods see: an annotation bump, an image change (spec and
 * status), and the Ready condition flipping (status, with its lastTransitionTime). None is a
 * restart or a failure, so no other recorder (kept logs) is set off by them. Prints `control: URL`
 * and then the simulator CLI's `pods: N, events: N` line, which the bench waits for.
 */

import { writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { parseArgs } from 'node:util';
import { startSimulator } from '../packages/kube-simulator/src/index';
import type { KubeObject } from '../packages/kube-simulator/src/types';

interface PodLike extends KubeObject {
  spec: { containers: Array<{ name: string; image: string }> };
  status: {
    conditions?: Array<{ type: string; status: string; lastTransitionTime?: string }>;
    containerStatuses?: Array<{ name: string; image: string }>;
  };
}

const { values } = parseArgs({
  options: {
    pods: { type: 'string', default: '10000' },
    events: { type: 'string', default: '1000' },
    kubeconfig: { type: 'string' },
    context: { type: 'string', default: 'bench' },
  },
});

const sim = await startSimulator({
  tickMs: false,
  scale: { pods: Number(values.pods), events: Number(values.events) },
});
if (values.kubeconfig) writeFileSync(values.kubeconfig, sim.kubeconfigYaml(values.context), { mode: 0o600 });
const pods = sim.store.list('pods').map((p) => ({ ns: p.metadata.namespace ?? '', name: p.metadata.name }));
let seq = 0;

/** The nth change: one pod (round robin over all of them), one of three kinds of change. */
function change(n: number): void {
  const at = pods[n % pods.length]!;
  const pod = sim.store.get<PodLike>('pods', at.ns, at.name);
  if (!pod) return;
  const stamp = new Date(sim.store.now()).toISOString().replace(/\.\d+Z$/, 'Z');
  switch (n % 3) {
    case 0:
      pod.metadata.annotations = { ...pod.metadata.annotations, 'bench.skiff.dev/revision': String(n) };
      break;
    case 1: {
      const c = pod.spec.containers[0];
      if (!c) return;
      c.image = `${c.image.replace(/:[^:/]*$/, '')}:bench-${n}`;
      const s = pod.status.containerStatuses?.find((x) => x.name === c.name);
      if (s) s.image = c.image;
      break;
    }
    default: {
      const ready = pod.status.conditions?.find((c) => c.type === 'Ready');
      if (ready) {
        ready.status = ready.status === 'True' ? 'False' : 'True';
        ready.lastTransitionTime = stamp;
      } else pod.metadata.labels = { ...pod.metadata.labels, 'bench.skiff.dev/flip': String(n) };
    }
  }
  sim.store.upsert(pod);
}

/** `rate` changes a second for `seconds`, caught up every 10 ms so the rate holds on a busy machine. */
function changes(rate: number, seconds: number): Promise<{ changes: number; ms: number }> {
  const t0 = performance.now();
  const total = Math.round(rate * seconds);
  let done = 0;
  return new Promise((resolve) => {
    const timer = setInterval(() => {
      const elapsed = performance.now() - t0;
      const due = Math.min(total, Math.floor((elapsed / 1000) * rate));
      for (; done < due; done++) change(seq++);
      if (done >= total) {
        clearInterval(timer);
        resolve({ changes: done, ms: performance.now() - t0 });
      }
    }, 10);
  });
}

const control = createServer((req, res) => {
  const url = new URL(req.url ?? '/', 'http://control');
  const rate = Number(url.searchParams.get('rate'));
  const seconds = Number(url.searchParams.get('seconds'));
  if (
    req.method !== 'POST' ||
    url.pathname !== '/changes' ||
    !(rate > 0 && rate <= 1_000) ||
    !(seconds > 0 && seconds <= 120)
  ) {
    res.writeHead(400).end('POST /changes?rate=1..1000&seconds=1..120\n');
    return;
  }
  void changes(rate, seconds).then((r) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(r)),
  );
});
await new Promise<void>((resolve) => control.listen(0, '127.0.0.1', resolve));
const address = control.address();
if (address === null || typeof address === 'string') throw new Error('no control address');
console.log(`demo cluster: ${sim.url}`);
console.log(`control: http://127.0.0.1:${address.port}`);
console.log(`pods: ${sim.store.count('pods')}, events: ${sim.store.count('events')}`);
const stop = () => {
  control.close();
  void sim.close().then(() => process.exit(0));
};
process.once('SIGINT', stop);
process.once('SIGTERM', stop);
