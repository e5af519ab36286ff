import { CoreV1Api, type KubeConfig, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, until } from './harness.test-support';
import type { Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;

beforeAll(async () => {
  ({ sim, kc } = await harness());
});
afterAll(() => sim.close());

/** A client-node watch from the current list resourceVersion, recording event types and how it ended. */
async function openWatch() {
  const list = await kc.makeApiClient(CoreV1Api).listPodForAllNamespaces();
  const seen: { type: string; code?: number; reason?: string }[] = [];
  let ended: { err: unknown } | undefined;
  const ctrl = await new Watch(kc).watch(
    '/api/v1/pods',
    { resourceVersion: list.metadata?.resourceVersion },
    (type, obj: { code?: number; reason?: string }) => {
      seen.push(type === 'ERROR' ? { type, code: obj.code, reason: obj.reason } : { type });
    },
    (err) => {
      ended = { err };
    },
  );
  return { seen, ended: () => ended, stop: () => ctrl.abort() };
}

describe('endWatches fault knob', () => {
  it('with expired, every open watch gets ERROR 410 Expired and then its stream ends cleanly', async () => {
    const a = await openWatch();
    const b = await openWatch();
    // The server registers a watch before it sends the headers the client waited for.
    expect(sim.store.endWatches({ expired: true })).toBe(2);
    await until(() => a.ended() !== undefined && b.ended() !== undefined);
    for (const w of [a, b]) {
      expect(w.seen).toEqual([{ type: 'ERROR', code: 410, reason: 'Expired' }]);
      expect(w.ended()?.err).toBeNull();
    }
    expect(sim.store.endWatches({ expired: true })).toBe(0);
  });

  it('without expired, open watches end with no event, and changes after it reach no one', async () => {
    const w = await openWatch();
    expect(sim.store.endWatches()).toBe(1);
    await until(() => w.ended() !== undefined);
    sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'after-the-end', namespace: 'default' },
      spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
    });
    await new Promise((r) => setTimeout(r, 100));
    expect(w.seen).toEqual([]);
    expect(w.ended()?.err).toBeNull();
  });
});
