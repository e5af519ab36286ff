/** The load bench's figures: their shape, the printed tables, and the verdicts against the targets. */

import { table, type Verdict } from '../stats';
import type { Kind, KindFigures } from './mix';
import type { ProfileSummary } from './profile';

/** One kind of request alone: what it costs the service, which no other process's noise changes much. */
export interface KindCost {
  kind: Kind;
  rps: number;
  p50: number;
  p99: number;
  /** Service CPU time per answered request, in microseconds. */
  cpuMicros: number;
}

export interface LoadReport {
  quick: boolean;
  pods: number;
  events: number;
  connections: number;
  durationS: number;
  requests: number;
  rps: number;
  p50: number;
  p99: number;
  maxMs: number;
  errors: { total: number; byStatus: Record<string, number>; socket: number; timeouts: number };
  kinds: KindFigures[];
  fds: { before: number; peak: number; after: number; afterS: number; backToBaselineS: number | null };
  /** The service's resident memory before the load and its peak during it. */
  rssMiB: { before: number; peak: number };
  /** Response bytes per second (bodies and headers). */
  bytesPerSecond: number;
  /** CPU used during the load, in cores (1.0 = one core busy the whole time). */
  cpu: { service: number; simulator: number; bench: number };
  costs?: KindCost[];
  profile?: ProfileSummary;
}

/** How long after the load the descriptors are waited for to come back to the baseline. */
export const BASELINE_WAIT_S = 30;
export const PER_KIND = { connections: 50, durationS: 5 };

const n = (x: number) => Math.round(x).toLocaleString('en-US');
const msOf = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`;

export function printLoadReport(r: LoadReport): void {
  console.log(
    `\nLoad: ${r.connections} concurrent clients for ${r.durationS} s on loopback, ${n(r.pods)} pods and ${n(r.events)} events${r.quick ? ' (--quick: a smoke run, not the targets’ scale)' : ''}`,
  );
  console.log(
    `Mix: each request one of ${r.kinds.map((k) => k.kind).join(', ')} with equal chance; pages at random offsets\n`,
  );
  const errorDetail = [
    ...Object.entries(r.errors.byStatus).map(([s, c]) => `${n(c)} × ${s}`),
    ...(r.errors.socket ? [`${n(r.errors.socket)} socket errors`] : []),
    ...(r.errors.timeouts ? [`${n(r.errors.timeouts)} timeouts`] : []),
  ].join(', ');
  const baseline =
    r.fds.backToBaselineS === null
      ? `not back to ${r.fds.before} within ${BASELINE_WAIT_S} s`
      : `back to baseline ${r.fds.backToBaselineS.toFixed(1)} s after the load`;
  console.log(
    table([
      { measure: 'requests per second', value: n(r.rps) },
      { measure: 'requests answered', value: n(r.requests) },
      { measure: 'latency p50', value: msOf(r.p50) },
      { measure: 'latency p99', value: msOf(r.p99) },
      { measure: 'latency max', value: msOf(r.maxMs) },
      {
        measure: 'errors (non-2xx + socket)',
        value: `${n(r.errors.total)}${errorDetail ? ` (${errorDetail})` : ''}`,
      },
      { measure: 'service open fds: before', value: n(r.fds.before) },
      { measure: 'service open fds: peak', value: n(r.fds.peak) },
      { measure: `service open fds: ${r.fds.afterS} s after`, value: `${n(r.fds.after)} (${baseline})` },
      {
        measure: 'service RSS: before → peak during the load',
        value: `${n(r.rssMiB.before)} → ${n(r.rssMiB.peak)} MiB`,
      },
      { measure: 'answered bytes per second', value: `${(r.bytesPerSecond / 2 ** 20).toFixed(1)} MiB/s` },
      { measure: 'CPU during the load: service', value: `${r.cpu.service.toFixed(2)} cores` },
      { measure: 'CPU during the load: simulator', value: `${r.cpu.simulator.toFixed(2)} cores` },
      { measure: 'CPU during the load: bench client', value: `${r.cpu.bench.toFixed(2)} cores` },
    ]),
  );
  console.log('\nBy kind\n');
  console.log(
    table(
      r.kinds.map((k) => ({
        kind: k.kind,
        requests: n(k.requests),
        p50: msOf(k.p50),
        p99: msOf(k.p99),
        statuses: Object.entries(k.statuses)
          .map(([s, c]) => `${s}: ${n(c)}`)
          .join(', '),
      })),
    ),
  );
  if (r.costs) {
    console.log(
      `\nEach kind alone (${PER_KIND.connections} clients, ${PER_KIND.durationS} s each): the service's CPU per request\n`,
    );
    console.log(
      table(
        r.costs.map((c) => ({
          kind: c.kind,
          'service CPU per request': `${n(c.cpuMicros)} µs`,
          'one core would serve': `${n(1e6 / c.cpuMicros)} req/s`,
          'req/s here': n(c.rps),
          p50: msOf(c.p50),
          p99: msOf(c.p99),
        })),
      ),
    );
  }
  if (r.profile) {
    const p = r.profile;
    console.log(
      `\nService CPU profile during the load: ${(p.busyMs / 1000).toFixed(1)} s busy, ${(p.idleMs / 1000).toFixed(1)} s idle\n`,
    );
    const rows = (xs: ProfileSummary['top']) =>
      xs.map((x) => ({ self: `${x.self.toFixed(1)}%`, total: `${x.total.toFixed(1)}%`, where: x.frame }));
    console.log(table(rows(p.byPlace)));
    console.log('');
    console.log(table(rows(p.top)));
  }
}

/** The load figures against section 6's targets, for the closing summary of `npm run bench`. */
export function loadVerdicts(r: LoadReport): Verdict[] {
  // At --quick's smaller scale and shorter run, speed figures are not the targets'.
  const speed = (pass: boolean) => (r.quick ? undefined : pass);
  return [
    {
      figure: `load, ${r.connections} clients: errors`,
      measured: n(r.errors.total),
      target: '0',
      pass: r.errors.total === 0,
    },
    {
      figure: `load, ${r.connections} clients: requests per second`,
      measured: n(r.rps),
      target: '≥ 3,000',
      pass: speed(r.rps >= 3_000),
    },
    {
      figure: `load, ${r.connections} clients: p99`,
      measured: `${msOf(r.p99)} (p50 ${msOf(r.p50)})`,
      target: '≤ 200 ms',
      pass: speed(r.p99 <= 200),
    },
    {
      figure: 'load: service fds back to baseline',
      measured: `${r.fds.before} → peak ${r.fds.peak} → ${r.fds.after} after ${r.fds.afterS} s`,
      target: `≤ ${r.fds.before}`,
      pass: r.fds.backToBaselineS !== null,
    },
  ];
}
