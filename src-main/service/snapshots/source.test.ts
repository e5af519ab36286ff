import { describe, expect, it } from 'vitest';
import { RESOURCE_KINDS, type ResourceKindInfo } from '../../../src-shared/kube/kinds';
import type { ResourceEntry } from '../cache/entries';
import type { ClusterConnection } from '../clusters/cluster';
import { ProblemError } from '../errors';
import type { HistoryRow } from '../events/history/filter';
import type { EventHistory } from '../events/history/index';
import { clusterSource } from './source';

/**
 * A connected cluster as what a capture reads: its caches (waited for a few request timeouts on a
 * large cluster, given up at once for anything else) and its recorded events.
 */

const timeout = () => new ProblemError('cluster_timeout', 'the cluster did not answer within 1 s');
const entry = (name: string) => ({ namespace: 'shop', name, json: `{"metadata":{"name":"${name}"}}` });

/** A cluster whose caches fail their first `failures` acquires as given, then hold `entries`. */
function cluster(failures: unknown[], entries: ResourceEntry[] = []) {
  const asked: string[] = [];
  let attempts = 0;
  const connection = {
    clusterId: 'prod-eu',
    context: 'prod-eu-context',
    source: { server: 'https://prod-eu.example:6443' },
    client: { marker: 'the client' },
    timeoutMs: 1234,
    resources: (kind: ResourceKindInfo) => {
      asked.push(kind.plural);
      return {
        acquire: async () => {
          const failure = failures[attempts++];
          if (failure !== undefined) throw failure;
        },
        read: () => ({ view: { all: entries } }),
      };
    },
  };
  return { connection: connection as unknown as ClusterConnection, asked, attempts: () => attempts };
}

describe('clusterSource', () => {
  it('names the cluster it reads: id, context, server, client and timeout', () => {
    const c = cluster([]);
    const source = clusterSource(c.connection);
    expect(source).toMatchObject({
      clusterId: 'prod-eu',
      context: 'prod-eu-context',
      server: 'https://prod-eu.example:6443',
      client: { marker: 'the client' },
      timeoutMs: 1234,
    });
  });

  it("a kind's objects are its cache's, once the cache has listed", async () => {
    const entries = [entry('web-2'), entry('web-1')] as unknown as ResourceEntry[];
    const c = cluster([], entries);
    const got = await clusterSource(c.connection).objects(RESOURCE_KINDS.pod, new AbortController().signal);
    expect(got).toEqual(entries);
    expect(c.asked).toEqual(['pods']);
  });

  it('a cache that times out is waited for up to three times in all before the kind is given up', async () => {
    const signal = new AbortController().signal;
    const twice = cluster([timeout(), timeout()], [entry('web-1')] as unknown as ResourceEntry[]);
    expect(await clusterSource(twice.connection).objects(RESOURCE_KINDS.node, signal)).toHaveLength(1);
    expect(twice.attempts()).toBe(3);

    const always = cluster([timeout(), timeout(), timeout(), timeout()]);
    await expect(clusterSource(always.connection).objects(RESOURCE_KINDS.node, signal)).rejects.toMatchObject(
      {
        code: 'cluster_timeout',
      },
    );
    expect(always.attempts()).toBe(3);
  });

  it('a first list still arriving (503 cluster_syncing) is waited on, and costs none of the three attempts', async () => {
    const signal = new AbortController().signal;
    const syncing = () => new ProblemError('cluster_syncing', 'the first list is still arriving');
    const big = cluster([syncing(), syncing(), syncing(), timeout(), timeout()], [
      entry('web-1'),
    ] as unknown as ResourceEntry[]);
    expect(await clusterSource(big.connection).objects(RESOURCE_KINDS.pod, signal)).toHaveLength(1);
    expect(big.attempts()).toBe(6);

    const stop = new AbortController();
    stop.abort();
    const aborted = cluster([syncing(), undefined]);
    await expect(
      clusterSource(aborted.connection).objects(RESOURCE_KINDS.pod, stop.signal),
    ).rejects.toMatchObject({ code: 'cluster_syncing' });
    expect(aborted.attempts()).toBe(1);
  });

  it('any other failure gives the kind up at once, and so does a timeout once the capture is aborted', async () => {
    const signal = new AbortController().signal;
    const refused = cluster([new ProblemError('cluster_unauthorized', 'no'), undefined]);
    await expect(clusterSource(refused.connection).objects(RESOURCE_KINDS.pod, signal)).rejects.toMatchObject(
      {
        code: 'cluster_unauthorized',
      },
    );
    expect(refused.attempts()).toBe(1);

    const broken = cluster([new Error('boom')]);
    await expect(clusterSource(broken.connection).objects(RESOURCE_KINDS.pod, signal)).rejects.toThrow(
      'boom',
    );
    expect(broken.attempts()).toBe(1);

    const stop = new AbortController();
    stop.abort();
    const aborted = cluster([timeout(), undefined]);
    await expect(
      clusterSource(aborted.connection).objects(RESOURCE_KINDS.pod, stop.signal),
    ).rejects.toMatchObject({
      code: 'cluster_timeout',
    });
    expect(aborted.attempts()).toBe(1);
  });

  it("the recorded events are this cluster's from the event history, and none without one", async () => {
    const calls: unknown[] = [];
    const rows = [{ eventId: 'u-1' }] as unknown as HistoryRow[];
    const history = {
      rowsAfter: async (...args: unknown[]) => {
        calls.push(args);
        return rows;
      },
    } as unknown as EventHistory;
    const c = cluster([]);
    const after = { lastMs: 5, eventId: 'u-0' };
    expect(await clusterSource(c.connection, history).history(after, 50)).toBe(rows);
    expect(calls).toEqual([[c.connection, after, 50]]);
    expect(await clusterSource(c.connection).history(undefined, 50)).toBeUndefined();
  });
});
