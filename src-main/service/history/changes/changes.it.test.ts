/**
 * Recording object changes over real HTTP against the simulator (issue 27 §1): a read of a kind
 * starts recording it (`--record-changes viewed`), and each change the cluster makes becomes a row
 * with its patch and summary; heartbeats, noisy kinds and Secret values are left out.
 */

import type { KubeObject } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { deployment, namespaceObject, recordedRows } from './changes-test.test-support';
import { CHANGES_CHANNEL } from './options';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ service: { changeHistory: { flushMs: 20, wholeEvery: 3 } } });
});
afterAll(async () => stack?.close());

/** Reads the kind in the namespace over HTTP: the read that makes its cache, so it is recorded. */
async function view(ns: string, resourceType: string) {
  const res = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${ns}/${resourceType}`);
  expect(res.status).toBe(200);
}

const patchOf = (row: { patch: string }) =>
  JSON.parse(row.patch) as { op: string; path: string; value?: unknown }[];

describe('recording changes (viewed)', () => {
  it('a deployment seen at the first read is a whole-object baseline; an image edit is an update with its patch and summary', async () => {
    const ns = 'chg-image';
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert(deployment(ns, 'checkout', 'shop/checkout:1.4.1'));
    expect(stack.service.recorded.changes?.isRecordedCluster('sim-test')).toBe(false);
    await view(ns, 'deployment');
    expect(stack.service.recorded.changes?.isRecordedCluster('sim-test')).toBe(true);
    const [seen] = await eventually(async () => {
      const rows = await recordedRows(stack.service, 'deployment', ns);
      expect(rows).toHaveLength(1);
      return rows;
    });
    expect(seen).toMatchObject({ change: 'seen', kind: 'Deployment', name: 'checkout', patch: '[]' });
    const whole = JSON.parse(seen!.object!) as KubeObject;
    expect(whole.metadata.name).toBe('checkout');
    expect(whole.metadata.resourceVersion).toBeUndefined();
    expect(whole.metadata.managedFields).toBeUndefined();

    const notified: string[] = [];
    const unlisten = await stack.service.recorded.deps.backend.listen(CHANGES_CHANNEL, (p) =>
      notified.push(p),
    );
    const before = stack.service.recorded.changes!.version('sim-test');
    const stored = stack.sim.store.peek('deployments', ns, 'checkout')!;
    const edited = structuredClone(stored) as KubeObject & {
      spec: { template: { spec: { containers: { image: string }[] } } };
    };
    edited.spec.template.spec.containers[0]!.image = 'shop/checkout:1.4.2';
    const rv = stack.sim.store.upsert(edited).metadata.resourceVersion;
    const rows = await eventually(async () => {
      const r = await recordedRows(stack.service, 'deployment', ns);
      expect(r).toHaveLength(2);
      return r;
    });
    await unlisten();
    expect(rows[1]).toMatchObject({
      change: 'updated',
      resource_version: rv,
      summary: 'image app: 1.4.1 → 1.4.2',
    });
    expect(patchOf(rows[1]!)).toEqual([
      { op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'shop/checkout:1.4.2' },
    ]);
    expect(stack.service.recorded.changes!.version('sim-test')).toBeGreaterThan(before);
    expect(notified).toContain('sim-test');
  });

  it('a scale is summarised as replicas a → b; a deployment made after the read is created, a deleted one deleted with its last object', async () => {
    const ns = 'chg-scale';
    stack.sim.store.upsert(namespaceObject(ns));
    await view(ns, 'deployment');
    stack.sim.store.upsert(deployment(ns, 'web', 'web:1', 3));
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(1));
    const stored = stack.sim.store.peek('deployments', ns, 'web')!;
    stack.sim.store.upsert({ ...stored, spec: { ...(stored.spec as object), replicas: 5 } });
    stack.sim.store.remove('deployments', ns, 'web');
    const rows = await eventually(async () => {
      const r = await recordedRows(stack.service, 'deployment', ns);
      expect(r).toHaveLength(3);
      return r;
    });
    expect(rows.map((r) => [r.change, r.summary])).toEqual([
      ['created', 'created'],
      ['updated', 'replicas 3 → 5'],
      ['deleted', 'deleted'],
    ]);
    expect(rows[0]!.object).not.toBeNull();
    expect((JSON.parse(rows[2]!.object!) as { spec: { replicas: number } }).spec.replicas).toBe(5);
  });

  it('a ConfigMap edit names the keys that changed', async () => {
    const ns = 'chg-config';
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'settings', namespace: ns },
      data: { mode: 'fast', level: '1', same: 'x' },
    });
    await view(ns, 'configmap');
    await eventually(async () => expect(await recordedRows(stack.service, 'configmap', ns)).toHaveLength(1));
    const stored = stack.sim.store.peek('configmaps', ns, 'settings')!;
    stack.sim.store.upsert({ ...stored, data: { mode: 'slow', same: 'x', extra: 'y' } });
    const rows = await eventually(async () => {
      const r = await recordedRows(stack.service, 'configmap', ns);
      expect(r).toHaveLength(2);
      return r;
    });
    expect(rows[1]!.summary).toBe('data changed: extra, level, mode');
  });

  it("a Secret's change is recorded without its values: same-size values say `data changed`, nowhere a value", async () => {
    const ns = 'chg-secret';
    const b64 = (s: string) => Buffer.from(s).toString('base64');
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'db', namespace: ns },
      data: { password: b64('hunter22') },
    });
    await view(ns, 'secret');
    await eventually(async () => expect(await recordedRows(stack.service, 'secret', ns)).toHaveLength(1));
    const stored = stack.sim.store.peek('secrets', ns, 'db')!;
    stack.sim.store.upsert({ ...stored, data: { password: b64('hunter33') } });
    const rows = await eventually(async () => {
      const r = await recordedRows(stack.service, 'secret', ns);
      expect(r).toHaveLength(2);
      return r;
    });
    expect(rows[1]).toMatchObject({ change: 'updated', patch: '[]', summary: 'data changed' });
    stack.sim.store.upsert({
      ...stored,
      data: { password: b64('longer-password'), user: b64('app') },
    });
    const more = await eventually(async () => {
      const r = await recordedRows(stack.service, 'secret', ns);
      expect(r).toHaveLength(3);
      return r;
    });
    expect(more[2]!.summary).toBe('data changed: password, user');
    const text = JSON.stringify(more);
    for (const secret of [
      'hunter22',
      'hunter33',
      'longer-password',
      b64('hunter22'),
      b64('hunter33'),
      b64('app'),
    ])
      expect(text).not.toContain(secret);
  });

  it("a node's heartbeat is not recorded; its Ready condition turning False is", async () => {
    const name = 'chg-node';
    const node = (status: string, beat: string) => ({
      apiVersion: 'v1',
      kind: 'Node',
      metadata: { name },
      status: {
        conditions: [
          {
            type: 'Ready',
            status,
            lastHeartbeatTime: beat,
            lastTransitionTime: '2026-01-01T00:00:00Z',
            reason: 'KubeletReady',
          },
        ],
      },
    });
    stack.sim.store.upsert(node('True', '2026-01-01T00:00:00Z'));
    const res = await stack.get(`${stack.cluster}/kubernetes-proxy/node`);
    expect(res.status).toBe(200);
    const mine = async () => (await recordedRows(stack.service, 'node')).filter((r) => r.name === name);
    await eventually(async () => expect(await mine()).toHaveLength(1));
    for (const beat of ['2026-01-01T00:00:10Z', '2026-01-01T00:00:20Z'])
      stack.sim.store.upsert(node('True', beat));
    stack.sim.store.upsert(node('False', '2026-01-01T00:00:30Z'));
    const rows = await eventually(async () => {
      const r = await mine();
      expect(r).toHaveLength(2);
      return r;
    });
    expect(rows[1]!.summary).toBe('condition Ready True → False');
    expect(rows[1]!.patch).not.toContain('lastHeartbeatTime');
  });

  it('a Lease is not recorded by default (a noisy kind)', async () => {
    const ns = 'chg-lease';
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert({
      apiVersion: 'coordination.k8s.io/v1',
      kind: 'Lease',
      metadata: { name: 'leader', namespace: ns },
      spec: { holderIdentity: 'a', renewTime: '2026-01-01T00:00:00.000000Z' },
    });
    await view(ns, 'lease');
    // A kind recorded after the lease shows the recorder had its turn.
    stack.sim.store.upsert(deployment(ns, 'after', 'x:1'));
    await view(ns, 'deployment');
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(1));
    expect(await recordedRows(stack.service, 'lease', ns)).toEqual([]);
  });

  it('the whole object is stored again after every N patch-only rows, so any version rebuilds from at most N patches', async () => {
    const ns = 'chg-whole';
    stack.sim.store.upsert(namespaceObject(ns));
    stack.sim.store.upsert(deployment(ns, 'api', 'api:0'));
    await view(ns, 'deployment');
    await eventually(async () => expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(1));
    for (let i = 1; i <= 5; i++) {
      const s = stack.sim.store.peek('deployments', ns, 'api')!;
      stack.sim.store.upsert({ ...s, spec: { ...(s.spec as object), replicas: i + 1 } });
      await eventually(async () =>
        expect(await recordedRows(stack.service, 'deployment', ns)).toHaveLength(i + 1),
      );
    }
    const rows = await recordedRows(stack.service, 'deployment', ns);
    // wholeEvery 3: the baseline is whole, three patch-only rows follow it, then a whole one again.
    expect(rows.map((r) => r.object !== null)).toEqual([true, false, false, false, true, false]);
  });
});
