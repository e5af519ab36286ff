import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import type { KubeObject } from '@skiff/kube-simulator';
import { buildDemo, createPki, DEFAULT_SEED, type SimPki, startSimulator } from '@skiff/kube-simulator';
import { Agent, fetch } from 'undici';
import { median, ms, table, type Verdict } from './stats';

/**
 * `--only simulator`: the scaled demo cluster's own speed, which its unit test (demo-data.test.ts)
 * used to hold to wall-clock limits (start under 4 s, paging under 8 s) that a busy machine broke.
 * Two figures, each a ratio against a baseline measured in the same run, in this process, in
 * interleaved rounds so that machine noise lands on both sides alike:
 * - start: `startSimulator` at the scale (build the demo, load the store, listen) ÷ a JSON round
 *   trip (stringify, then parse) of the same cluster's objects, the least any start could cost;
 * - paging: every pod through @kubernetes/client-node in pages of 1,000 ÷ a JSON round trip of
 *   those pods, the serialising every list must do at least once on each side.
 * - close: `close()` of a TLS simulator holding a client's idle keep-alive connection ÷ one request
 *   on that connection: close ends the connection itself rather than waiting out the keep-alive
 *   (tls.test.ts held it under 1 s).
 * The simulator runs in this process, so its CPU time is shown beside each wall time.
 */

const PAGE = 1000;
// The unit test's old limits (4 s, 8 s) were about 3.3 and 3.1 times what this machine measured
// (start 1.2 s, paging 2.6 s; ratios 0.4–0.7 and 2.9–4.0 at load average 2–4): the targets keep
// that headroom over the ratios, so they ask what those limits asked, on any machine.
const START_TARGET = 2;
const PAGING_TARGET = 10;
// About 1 (closing a connection is one exchange); waiting out a keep-alive would be thousands.
const CLOSE_TARGET = 10;
const CLOSE_REQUESTS = 5;

export interface SimulatorBuildFigures {
  pods: number;
  events: number;
  startMs: number;
  startCpuMs: number;
  clusterRoundTripMs: number;
  pagingMs: number;
  pagingCpuMs: number;
  podsRoundTripMs: number;
}

const n = (x: number) => x.toLocaleString('en-US');
const cpuSince = (since: NodeJS.CpuUsage) => {
  const used = process.cpuUsage(since);
  return (used.user + used.system) / 1000;
};

async function timedCpu<T>(fn: () => Promise<T> | T): Promise<{ ms: number; cpuMs: number; value: T }> {
  const cpu = process.cpuUsage();
  const t = performance.now();
  const value = await fn();
  return { ms: performance.now() - t, cpuMs: cpuSince(cpu), value };
}

const roundTrip = (objects: readonly KubeObject[]) => JSON.parse(JSON.stringify(objects)) as unknown[];

async function pageAllPods(core: CoreV1Api): Promise<number> {
  let total = 0;
  let token: string | undefined;
  do {
    const page = await core.listPodForAllNamespaces({ limit: PAGE, ...(token ? { _continue: token } : {}) });
    total += page.items.length;
    token = page.metadata?._continue || undefined;
  } while (token);
  return total;
}

export async function benchSimulatorBuild(
  scale: { pods: number; events: number },
  rounds: number,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<SimulatorBuildFigures> {
  // The same objects a start builds (same seed and scale), kept for the baselines.
  const objects = buildDemo({ seed: DEFAULT_SEED, now: Date.now(), scale }).objects;
  const pods = objects.filter((o) => o.kind === 'Pod');
  if (pods.length !== scale.pods) throw new Error(`the demo built ${pods.length} pods, not ${scale.pods}`);
  const runs: Array<Omit<SimulatorBuildFigures, 'pods' | 'events'>> = [];
  for (let i = 0; i < rounds; i++) {
    const clusterRoundTrip = await timedCpu(() => roundTrip(objects));
    const start = await timedCpu(() => startSimulator({ tickMs: false, scale }));
    const sim = start.value;
    try {
      const kc = new KubeConfig();
      kc.loadFromString(sim.kubeconfigYaml());
      const core = kc.makeApiClient(CoreV1Api);
      const podsRoundTrip = await timedCpu(() => roundTrip(pods));
      const paging = await timedCpu(() => pageAllPods(core));
      if (paging.value !== scale.pods) throw new Error(`paged ${paging.value} pods, not ${scale.pods}`);
      runs.push({
        startMs: start.ms,
        startCpuMs: start.cpuMs,
        clusterRoundTripMs: clusterRoundTrip.ms,
        pagingMs: paging.ms,
        pagingCpuMs: paging.cpuMs,
        podsRoundTripMs: podsRoundTrip.ms,
      });
    } finally {
      await sim.close();
    }
  }
  const m = (k: keyof (typeof runs)[number]) => median(runs.map((r) => r[k]));
  const figures: SimulatorBuildFigures = {
    pods: scale.pods,
    events: objects.filter((o) => o.kind === 'Event').length,
    startMs: m('startMs'),
    startCpuMs: m('startCpuMs'),
    clusterRoundTripMs: m('clusterRoundTripMs'),
    pagingMs: m('pagingMs'),
    pagingCpuMs: m('pagingCpuMs'),
    podsRoundTripMs: m('podsRoundTripMs'),
  };
  const startRatio = figures.startMs / figures.clusterRoundTripMs;
  const pagingRatio = figures.pagingMs / figures.podsRoundTripMs;
  console.log(
    `\nThe demo simulator at ${n(scale.pods)} pods and ${n(figures.events)} events, in this process (median of ${rounds} interleaved rounds)\n`,
  );
  console.log(
    table([
      { measure: 'start (build, load, listen)', value: ms(figures.startMs) },
      { measure: 'its CPU time', value: ms(figures.startCpuMs) },
      {
        measure: `baseline: JSON round trip of its ${n(objects.length)} objects`,
        value: ms(figures.clusterRoundTripMs),
      },
      { measure: `ratio start ÷ baseline (target ≤ ${START_TARGET})`, value: startRatio.toFixed(2) },
      { measure: `every pod through client-node, pages of ${n(PAGE)}`, value: ms(figures.pagingMs) },
      { measure: 'its CPU time (simulator and client)', value: ms(figures.pagingCpuMs) },
      {
        measure: `baseline: JSON round trip of the ${n(scale.pods)} pods`,
        value: ms(figures.podsRoundTripMs),
      },
      { measure: `ratio paging ÷ baseline (target ≤ ${PAGING_TARGET})`, value: pagingRatio.toFixed(2) },
    ]),
  );
  verdicts.push(
    {
      figure: `simulator start at ${n(scale.pods)} pods + ${n(figures.events)} events ÷ JSON round trip of its objects`,
      measured: `${startRatio.toFixed(2)} (${ms(figures.startMs)} ÷ ${ms(figures.clusterRoundTripMs)})`,
      target: `≤ ${START_TARGET}`,
      pass: judge(startRatio <= START_TARGET),
    },
    {
      figure: `simulator: ${n(scale.pods)} pods through client-node ÷ JSON round trip of them`,
      measured: `${pagingRatio.toFixed(2)} (${ms(figures.pagingMs)} ÷ ${ms(figures.podsRoundTripMs)})`,
      target: `≤ ${PAGING_TARGET}`,
      pass: judge(pagingRatio <= PAGING_TARGET),
    },
  );
  await closeWithIdleClient(await createPki(), rounds, verdicts, judge);
  return figures;
}

/** The close figure: per round a fresh TLS simulator, one kept-alive client, requests, then close. */
async function closeWithIdleClient(
  pki: SimPki,
  rounds: number,
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
) {
  const requestMs: number[] = [];
  const closeMs: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const sim = await startSimulator({ tickMs: false, tls: { pki } });
    // One connection, kept alive far longer than the run: close must end it, not wait it out.
    const agent = new Agent({ connect: { ca: pki.caPem }, connections: 1, keepAliveTimeout: 60_000 });
    try {
      const version = async () => (await fetch(`${sim.url}/version`, { dispatcher: agent })).text();
      await version();
      const times: number[] = [];
      for (let r = 0; r < CLOSE_REQUESTS; r++) {
        const t = performance.now();
        await version();
        times.push(performance.now() - t);
      }
      const { accepted, open } = sim.connections();
      if (accepted !== 1 || open !== 1)
        throw new Error(`expected one kept-alive connection, saw ${accepted} / ${open}`);
      requestMs.push(median(times));
      const t = performance.now();
      await sim.close();
      closeMs.push(performance.now() - t);
    } finally {
      await sim.close();
      await agent.destroy();
    }
  }
  const request = median(requestMs);
  const close = median(closeMs);
  const ratio = close / request;
  console.log(
    `\nClosing a TLS simulator with a client's idle keep-alive connection (median of ${rounds} rounds)\n`,
  );
  console.log(
    table([
      { measure: 'close()', value: ms(close) },
      { measure: 'baseline: one request on that connection', value: ms(request) },
      { measure: `ratio close ÷ baseline (target ≤ ${CLOSE_TARGET})`, value: ratio.toFixed(2) },
    ]),
  );
  verdicts.push({
    figure: 'simulator close with an idle keep-alive client ÷ one request on it',
    measured: `${ratio.toFixed(2)} (${ms(close)} ÷ ${ms(request)})`,
    target: `≤ ${CLOSE_TARGET}`,
    pass: judge(ratio <= CLOSE_TARGET),
  });
}
