/**
 * Which clusters the service samples: those ChangeHistory says are recorded. With
 * `--record-changes off` none, even once viewed; with `all` every live cluster from the start,
 * viewed or not; with `viewed` (default) a cluster once a resource cache was made for it. Ticks
 * are driven by the test (`--usage-interval off` stops the timer, not a tick asked for).
 */
import { afterEach, describe, expect, it } from 'vitest';
import type { PodUsage } from '../../../../src-shared/contract/usage-operations';
import { type Stack, startStack } from '../../test-support/harness.test-support';

let stack: Stack | undefined;
afterEach(async () => {
  await stack?.close();
  stack = undefined;
});

async function start(record: 'viewed' | 'all' | 'off'): Promise<Stack> {
  stack = await startStack({ service: { usage: { intervalMs: 0 }, changeHistory: { record } } });
  return stack;
}

async function nodeSamples(s: Stack): Promise<number> {
  const node = s.sim.store.list('nodes')[0]!.metadata.name;
  await s.service.recorded.usage!.sampler.tick();
  const res = await s.get<PodUsage>(`${s.cluster}/usage/node/${node}`);
  expect(res.status).toBe(200);
  return res.body.points.length;
}

const view = async (s: Stack) =>
  expect((await s.get(`${s.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);

describe('the clusters usage is sampled for', () => {
  it('viewed (the default): none before the cluster is viewed, then it', async () => {
    const s = await start('viewed');
    expect(await nodeSamples(s)).toBe(0);
    await view(s);
    expect(await nodeSamples(s)).toBe(1);
  });

  it('all: every live cluster from the start, without a view', async () => {
    const s = await start('all');
    expect(await nodeSamples(s)).toBe(1);
  });

  it('off: none, even once viewed', async () => {
    const s = await start('off');
    await view(s);
    expect(await nodeSamples(s)).toBe(0);
    expect(s.service.recorded.usage!.sampler.sampling()).toEqual([]);
  });
});
