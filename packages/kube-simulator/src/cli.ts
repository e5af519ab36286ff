/**
 * Runs the demo cluster standalone:
 *   npx tsx packages/kube-simulator/src/cli.ts --port 0 --pods 10000
 * Prints the URL and the path of the kubeconfig it wrote, then serves until interrupted.
 */

import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { startSimulator } from './index';

const USAGE = `usage: cli.ts [--host 127.0.0.1] [--port 0] [--seed 42] [--tick 2000|off]
              [--pods N] [--events N] [--nodes N] [--namespaces N]
              [--kubeconfig PATH] [--context demo] [--event-ttl 1h|30s]`;

function positiveInt(name: string, value: string | undefined): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < 0)
    throw new Error(`--${name} must be a non-negative integer, got "${value}"`);
  return n;
}

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** 30s, 15m, 1h, 1d in ms. */
function duration(name: string, value: string): number {
  const m = /^(\d+)(s|m|h|d)$/.exec(value);
  const ms = m ? Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS] : 0;
  if (ms <= 0) throw new Error(`--${name} must be a duration such as 30s, 15m, 1h, got "${value}"`);
  return ms;
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      host: { type: 'string', default: '127.0.0.1' },
      port: { type: 'string', default: '0' },
      seed: { type: 'string' },
      tick: { type: 'string', default: '2000' },
      pods: { type: 'string' },
      events: { type: 'string' },
      nodes: { type: 'string' },
      namespaces: { type: 'string' },
      kubeconfig: { type: 'string' },
      context: { type: 'string', default: 'demo' },
      'event-ttl': { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const scale = {
    pods: positiveInt('pods', values.pods),
    events: positiveInt('events', values.events),
    nodes: positiveInt('nodes', values.nodes),
    namespaces: positiveInt('namespaces', values.namespaces),
  };
  const tickMs = values.tick === 'off' ? false : positiveInt('tick', values.tick);
  const seed = positiveInt('seed', values.seed);
  const ttl = values['event-ttl'];
  const eventTtlMs = ttl === undefined ? undefined : duration('event-ttl', ttl);
  const sim = await startSimulator({
    host: values.host,
    port: positiveInt('port', values.port) ?? 0,
    ...(seed !== undefined ? { seed } : {}),
    tickMs: tickMs || false,
    ...(eventTtlMs !== undefined ? { eventTtlMs } : {}),
    scale: Object.fromEntries(Object.entries(scale).filter(([, v]) => v !== undefined)),
  });
  const port = new URL(sim.url).port;
  const path = values.kubeconfig ?? join(tmpdir(), `skiff-demo-${port}.kubeconfig`);
  writeFileSync(path, sim.kubeconfigYaml(values.context), { mode: 0o600 });
  console.log(`demo cluster: ${sim.url}`);
  console.log(`kubeconfig:   ${path}`);
  console.log(
    `pods: ${sim.store.count('pods')}, events: ${sim.store.count('events')}, ticking: ${tickMs ? `${tickMs} ms` : 'off'}`,
  );
  const stop = () => {
    void sim.close().then(() => process.exit(0));
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  console.error(USAGE);
  process.exit(1);
});
