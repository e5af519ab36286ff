import { CoreV1Api } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness } from './harness.test-support';
import type { Simulator } from './index';

/**
 * `listOrder: 'scrambled'` answers each chunk in an order unrelated to the keys, as kine and the
 * old watch cache did, so that a client's tests of its own order cannot pass by luck. Chunks and
 * continue tokens still follow the keys: a walk sees every object exactly once.
 */

let sorted: { sim: Simulator; core: CoreV1Api };
let scrambled: { sim: Simulator; core: CoreV1Api };
beforeAll(async () => {
  const a = await harness();
  const b = await harness({ listOrder: 'scrambled' });
  sorted = { sim: a.sim, core: a.kc.makeApiClient(CoreV1Api) };
  scrambled = { sim: b.sim, core: b.kc.makeApiClient(CoreV1Api) };
});
afterAll(async () => {
  await sorted?.sim.close();
  await scrambled?.sim.close();
});

const keys = (items: Array<{ metadata?: { namespace?: string; name?: string } }>) =>
  items.map((o) => `${o.metadata?.namespace}/${o.metadata?.name}`);

async function walk(core: CoreV1Api, limit: number): Promise<string[][]> {
  const chunks: string[][] = [];
  let token: string | undefined;
  do {
    const page = await core.listPodForAllNamespaces({ limit, ...(token ? { _continue: token } : {}) });
    chunks.push(keys(page.items));
    token = page.metadata?._continue;
  } while (token);
  return chunks;
}

describe('scrambled list order', () => {
  it('is not the key order, and the same on every request', async () => {
    const inKeyOrder = keys((await sorted.core.listPodForAllNamespaces()).items);
    const first = keys((await scrambled.core.listPodForAllNamespaces()).items);
    expect([...first].sort()).toEqual([...inKeyOrder].sort());
    expect(first).not.toEqual(inKeyOrder);
    expect(keys((await scrambled.core.listPodForAllNamespaces()).items)).toEqual(first);
  });

  it('keeps chunks and continue tokens on the keys: each chunk holds the same objects, each once', async () => {
    const byKey = await walk(sorted.core, 10);
    const chunks = await walk(scrambled.core, 10);
    expect(chunks.map((c) => [...c].sort())).toEqual(byKey.map((c) => [...c].sort()));
    expect(chunks.some((c, i) => c.join() !== byKey[i]!.join())).toBe(true);
  });

  it('is also the order of events', async () => {
    const inKeyOrder = keys((await sorted.core.listEventForAllNamespaces()).items);
    const events = keys((await scrambled.core.listEventForAllNamespaces()).items);
    expect(events).toHaveLength(inKeyOrder.length);
    expect(events).not.toEqual(inKeyOrder);
  });
});
