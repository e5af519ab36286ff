/**
 * An events request resolves its cluster once and passes it down (issue 24 §1): over real HTTP
 * against the service and the simulator, every registry method the list, the timeline, the groups
 * and the watch call is counted, as the handlers call them (a lookup's own inner calls, such as
 * cluster() asking clustersOf(), are not counted again). The registry's real methods run; nothing
 * is faked.
 *
 * A lookup is any call that finds a cluster (cluster, clustersOf, workspace, byId, allClusters);
 * `monitoring` reads the cluster's flags; `access` hands out what the caller may read (issue 26),
 * asked once per request and finding no cluster. With includeExpired=true the history used to find the
 * cluster a second time by id (to learn whether it brings its own history); now it reads that from
 * the connection it is handed.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ClusterRegistry } from '../clusters/registry';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { addEvent, openWatch } from './watch/event-watch.test-support';

let stack: Stack;
let calls: string[] = [];

/** Counts the registry's own methods on the service's instance, outermost calls only. */
function countCalls(registry: ClusterRegistry): void {
  let depth = 0;
  const methods = Object.getOwnPropertyNames(ClusterRegistry.prototype).filter((m) => m !== 'constructor');
  const target = registry as unknown as Record<string, unknown>;
  for (const name of methods) {
    const real = target[name];
    if (typeof real !== 'function') continue;
    target[name] = (...args: unknown[]) => {
      if (depth === 0) calls.push(name);
      depth++;
      try {
        return (real as (...a: unknown[]) => unknown).apply(registry, args);
      } finally {
        depth--;
      }
    };
  }
}

const LOOKUPS = new Set(['cluster', 'clustersOf', 'workspace', 'byId', 'allClusters']);
const lookups = () => calls.filter((c) => LOOKUPS.has(c));

beforeAll(async () => {
  stack = await startStack();
  addEvent(stack, { reason: 'Counted' });
  // Warm up: the event cache synced and recording, so each request below is an ordinary read.
  expect((await stack.get(`${stack.cluster}/kubernetes-events?includeExpired=true`)).status).toBe(200);
  countCalls(stack.service.registry);
});
afterAll(async () => {
  await stack?.close();
});
beforeEach(() => {
  calls = [];
});

describe('an events request consults the registry once', () => {
  it.each([
    ['the list', 'kubernetes-events'],
    ['the list with includeExpired', 'kubernetes-events?includeExpired=true'],
    ['the timeline', 'kubernetes-events/timeline'],
    ['the timeline with includeExpired', 'kubernetes-events/timeline?includeExpired=true'],
    ['the groups', 'kubernetes-events/groups'],
    ['the groups with includeExpired', 'kubernetes-events/groups?includeExpired=true'],
  ])('%s: one lookup of the cluster, one read of its flags', async (_name, path) => {
    const res = await stack.get(`${stack.cluster}/${path}`);
    expect(res.status).toBe(200);
    expect(calls).toEqual(['cluster', 'access', 'monitoring']);
  });

  it('a cluster outside the workspace is refused after that one lookup', async () => {
    const res = await stack.get(
      '/v1/workspaces/default/observability/nope/kubernetes-events?includeExpired=true',
    );
    expect(res.status).toBe(404);
    expect(calls).toEqual(['cluster']);
  });

  it('the watch: one lookup of the cluster; only its flags are read again, as they change', async () => {
    const c = await openWatch(stack, { ndjson: true });
    try {
      expect(c.status).toBe(200);
      await c.until((r) => r.type === 'SYNCED');
      addEvent(stack, { reason: 'WhileWatched' });
      await c.until((r) => r.type === 'ADDED' && r.event.reason === 'WhileWatched');
      expect(lookups()).toEqual(['cluster']);
      expect(calls.filter((m) => m === 'access')).toEqual(['access']);
      expect(calls.every((m) => m === 'cluster' || m === 'access' || m === 'monitoring')).toBe(true);
    } finally {
      c.close();
    }
  });
});
