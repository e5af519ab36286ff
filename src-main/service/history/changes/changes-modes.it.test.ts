/**
 * The recording modes and the life of the recorded rows over real HTTP against the simulator:
 * `off` records nothing, `all` records every kind from the start (noisy kinds only with
 * --record-noisy-kinds), a restart on the same data dir brings each chain up to the cluster, and
 * retention keeps each object's latest version whole.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Service } from '../../index';
import { eventually } from '../../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';
import { deployment, namespaceObject, recordedRows, restartedService } from './changes-test.test-support';

const cluster = `/v1/workspaces/default/observability/${CLUSTER_ID}`;

/** Reads the kind in the namespace over HTTP on `url`: the read that makes its cache. */
async function viewOn(url: string, ns: string, resourceType: string) {
  const session = await login(url);
  const res = await fetch(`${url}${cluster}/kubernetes-proxy/namespaces/${ns}/${resourceType}`, {
    headers: session.headers,
  });
  expect(res.status).toBe(200);
}

describe('--record-changes off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { changeHistory: { record: 'off', flushMs: 20 } } });
  });
  afterAll(async () => stack?.close());

  it('records nothing and no cluster is recorded, even after a read', async () => {
    stack.sim.store.upsert(namespaceObject('off-ns'));
    stack.sim.store.upsert(deployment('off-ns', 'quiet', 'q:1'));
    await viewOn(stack.url, 'off-ns', 'deployment');
    const s = stack.sim.store.peek('deployments', 'off-ns', 'quiet')!;
    stack.sim.store.upsert({ ...s, spec: { ...(s.spec as object), replicas: 4 } });
    const changes = stack.service.recorded.changes!;
    expect(changes.mode).toBe('off');
    expect(changes.isRecordedCluster(CLUSTER_ID)).toBe(false);
    expect(changes.records(CLUSTER_ID)).toBe(false);
    expect(changes.version(CLUSTER_ID)).toBe(0);
    await changes.flush();
    await changes.prune();
    expect(await recordedRows(stack.service, 'deployment')).toEqual([]);
  });
});

describe('--record-changes all', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { changeHistory: { record: 'all', flushMs: 20 } } });
  });
  afterAll(async () => stack?.close());

  it('records every kind from the start, before anyone reads it, but not the noisy ones', async () => {
    expect(stack.service.recorded.changes!.isRecordedCluster(CLUSTER_ID)).toBe(true);
    const simDeployments = stack.sim.store.count('deployments');
    expect(simDeployments).toBeGreaterThan(0);
    await eventually(async () => {
      expect(await recordedRows(stack.service, 'deployment')).toHaveLength(simDeployments);
      expect((await recordedRows(stack.service, 'namespace')).length).toBeGreaterThan(0);
    }, 30_000);
    stack.sim.store.upsert(namespaceObject('all-ns'));
    stack.sim.store.upsert({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'noisy', namespace: 'all-ns' },
      spec: { holderIdentity: 'a' },
    });
    stack.sim.store.upsert(deployment('all-ns', 'later', 'l:1'));
    await eventually(async () =>
      expect(await recordedRows(stack.service, 'deployment', 'all-ns')).toHaveLength(1),
    );
    expect((await recordedRows(stack.service, 'deployment', 'all-ns'))[0]!.change).toBe('created');
    expect(await recordedRows(stack.service, 'lease')).toEqual([]);
  });
});

describe('--record-changes all --record-noisy-kinds', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({
      service: { changeHistory: { record: 'all', recordNoisyKinds: true, flushMs: 20 } },
    });
  });
  afterAll(async () => stack?.close());

  it('records Leases too, without their renewals', async () => {
    stack.sim.store.upsert(namespaceObject('noisy-ns'));
    const lease = (holder: string, renew: string) => ({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader', namespace: 'noisy-ns' },
      spec: { holderIdentity: holder, renewTime: renew },
    });
    stack.sim.store.upsert(lease('a', '2026-01-01T00:00:00.000000Z'));
    await eventually(
      async () => expect(await recordedRows(stack.service, 'lease', 'noisy-ns')).toHaveLength(1),
      30_000,
    );
    stack.sim.store.upsert(lease('a', '2026-01-01T00:00:10.000000Z'));
    stack.sim.store.upsert(lease('b', '2026-01-01T00:00:20.000000Z'));
    const rows = await eventually(async () => {
      const r = await recordedRows(stack.service, 'lease', 'noisy-ns');
      expect(r).toHaveLength(2);
      return r;
    });
    expect(rows[1]!.summary).toBe('spec.holderIdentity');
  });
});

describe('a restart on the same data dir', () => {
  let stack: Stack;
  let second: Service | undefined;
  beforeAll(async () => {
    stack = await startStack({ service: { changeHistory: { flushMs: 20 } } });
  });
  afterAll(async () => {
    await second?.close();
    await stack?.close();
  });

  it('records what changed while it was down: updated with the whole object, deleted, created; nothing for the unchanged', async () => {
    const ns = 'restart-ns';
    stack.sim.store.upsert(namespaceObject(ns));
    for (const name of ['edited', 'removed', 'same'])
      stack.sim.store.upsert(deployment(ns, name, `${name}:1`));
    await viewOn(stack.url, ns, 'deployment');
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(3));
    await stack.service.close();

    const s = stack.sim.store.peek('deployments', ns, 'edited')!;
    const spec = s.spec as { template: { spec: { containers: { name: string; image: string }[] } } };
    spec.template.spec.containers[0]!.image = 'edited:2';
    const rv = stack.sim.store.upsert(s).metadata.resourceVersion;
    stack.sim.store.remove('deployments', ns, 'removed');
    // Made after recording of the kind began (a whole second later: creationTimestamp has seconds).
    await new Promise((r) => setTimeout(r, 1_100));
    stack.sim.store.upsert(deployment(ns, 'added', 'added:1'));

    second = restartedService(stack, { changeHistory: { flushMs: 20 } });
    const { url } = await second.listen(0, '127.0.0.1');
    await viewOn(url, ns, 'deployment');
    const rows = await eventually(async () => {
      const r = await recordedRows(second!, 'deployment', ns);
      expect(r).toHaveLength(6);
      return r;
    });
    const after = rows
      .slice(3)
      .map((r) => ({ name: r.name, change: r.change, summary: r.summary, whole: r.object !== null }));
    expect(after).toEqual(
      expect.arrayContaining([
        { name: 'edited', change: 'updated', summary: 'image app: 1 → 2', whole: true },
        { name: 'removed', change: 'deleted', summary: 'deleted', whole: true },
        { name: 'added', change: 'created', summary: 'created', whole: true },
      ]),
    );
    const edited = rows.find((r) => r.name === 'edited' && r.change === 'updated')!;
    expect(edited.resource_version).toBe(rv);
    expect(JSON.parse(edited.patch)).toEqual([
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'edited:2' },
    ]);
    const removed = rows.find((r) => r.change === 'deleted')!;
    expect(JSON.parse(removed.object!).metadata.name).toBe('removed');
    // The next change of an object the restart found unchanged carries its whole object again.
    const same = stack.sim.store.peek('deployments', ns, 'same')!;
    stack.sim.store.upsert({ ...same, spec: { ...(same.spec as object), replicas: 2 } });
    const more = await eventually(async () => {
      const r = await recordedRows(second!, 'deployment', ns);
      expect(r).toHaveLength(7);
      return r;
    });
    expect(more[6]).toMatchObject({ name: 'same', change: 'updated', summary: 'replicas 1 → 2' });
    expect(more[6]!.object).not.toBeNull();
  });
});

describe('retention', () => {
  let stack: Stack;
  beforeAll(async () => {
    // The event history's retention applies to changes too when none of their own is given.
    stack = await startStack({
      service: { eventHistory: { retentionMs: 1, maxPerCluster: 50_000 }, changeHistory: { flushMs: 20 } },
    });
  });
  afterAll(async () => stack?.close());

  it("follows --event-retention and --event-history-max; prunes all but each live object's latest version, kept whole", async () => {
    const changes = stack.service.recorded.changes!;
    expect([changes.options.retentionMs, changes.options.maxPerCluster]).toEqual([1, 50_000]);
    const ns = 'retention-ns';
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert(deployment(ns, 'kept', 'k:1'));
    stack.sim.store.upsert(deployment(ns, 'dropped', 'd:1'));
    await viewOn(stack.url, ns, 'deployment');
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(2));
    for (const replicas of [2, 3]) {
      const s = stack.sim.store.peek('deployments', ns, 'kept')!;
      stack.sim.store.upsert({ ...s, spec: { ...(s.spec as object), replicas } });
    }
    stack.sim.store.remove('deployments', ns, 'dropped');
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(5));
    const before = changes.version(CLUSTER_ID);
    await new Promise((r) => setTimeout(r, 5));
    await changes.prune();
    const rows = await recordedRows(stack.service, 'deployment', ns);
    expect(rows.map((r) => [r.name, r.change])).toEqual([['kept', 'updated']]);
    expect(JSON.parse(rows[0]!.object!).spec.replicas).toBe(3);
    expect(changes.version(CLUSTER_ID)).toBeGreaterThan(before);
  });

  it('given its own retention, changes keep it whatever the events keep', async () => {
    const own = await startStack({
      service: {
        eventHistory: { retentionMs: 1 },
        changeHistory: { retentionMs: 86_400_000, maxPerCluster: 7 },
      },
    });
    try {
      expect([
        own.service.recorded.changes!.options.retentionMs,
        own.service.recorded.changes!.options.maxPerCluster,
      ]).toEqual([86_400_000, 7]);
    } finally {
      await own.close();
    }
  });
});
