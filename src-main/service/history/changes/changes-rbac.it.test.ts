/**
 * The change history under `--authorize rbac` over HTTP (issue 27, "RBAC"): an object's history
 * and `?at=` need `get` of its kind in its namespace, the feed and its watch `list` of the kind
 * where they look. "alice" (skiff:alice) may read namespace `shop` only; the admin (cluster-wide)
 * is the control, given everything for the same requests. The same name is recorded in `shop` and
 * in a namespace alice may not read, and another name only there.
 */
import { DEMO_TEAM } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClusterChange, ObjectChange } from '../../../../src-shared/contract/change-operations';
import { eventually } from '../../test-support/eventually.test-support';
import { type Stack, startStack } from '../../test-support/harness.test-support';
import { login } from '../../test-support/login.test-support';
import { deployment, namespaceObject } from './changes-test.test-support';
import { editDeployment, openChangeWatch } from './reads-watch.test-support';

const SHOP = DEMO_TEAM.namespace;
const HIDDEN = 'hist-rbac-hidden';
const TWIN = 'rbac-twin';
const ONLY = 'rbac-only';
let stack: Stack;
let alice: Record<string, string>;
let bob: Record<string, string>;
const history = (rest: string) => `${stack.cluster}/history/${rest}`;

beforeAll(async () => {
  stack = await startStack({ service: { authorize: {}, changeHistory: { flushMs: 20 } } });
  for (const [username, role] of [
    ['alice', 'member'],
    ['bob', 'member'],
  ] as const) {
    const created = await stack.send('POST', '/v1/auth/accounts', {
      username,
      password: `${username}-password-0123`,
      role,
      workspaces: ['default'],
    });
    expect(created.status).toBe(201);
  }
  alice = (await login(stack.url, 'alice', 'alice-password-0123')).headers;
  bob = (await login(stack.url, 'bob', 'bob-password-0123')).headers;
  stack.sim.store.upsert(namespaceObject(HIDDEN));
  for (const [ns, name] of [
    [SHOP, TWIN],
    [HIDDEN, TWIN],
    [HIDDEN, ONLY],
  ] as const)
    stack.sim.store.upsert(deployment(ns, name, 'app:1'));
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/deployment?limit=1`)).status).toBe(200);
  await eventually(async () => {
    const n = await stack.service.recorded.deps.backend.get<{ n: number }>(
      "SELECT count(*) AS n FROM change_history WHERE name IN ('rbac-twin', 'rbac-only')",
    );
    expect(n?.n).toBe(3);
  }, 15_000);
  for (const [ns, name] of [
    [SHOP, TWIN],
    [HIDDEN, TWIN],
    [HIDDEN, ONLY],
  ] as const)
    editDeployment(stack, ns, name, (d) => {
      d.spec.replicas = 4;
    });
  await eventually(async () => {
    const res = await stack.get<ClusterChange[]>(
      `${stack.cluster}/changes?kind=deployment&since=1h&limit=1000`,
    );
    expect(res.body.filter((c) => c.ref.name === TWIN || c.ref.name === ONLY)).toHaveLength(3);
  }, 15_000);
}, 60_000);
afterAll(async () => stack?.close());

describe('an object’s history and ?at= need get of its kind in its namespace', () => {
  it('answers where alice may get it, and 403 where she may not', async () => {
    const mine = await stack.get<ObjectChange[]>(history(`namespaces/${SHOP}/deployment/${TWIN}`), alice);
    expect(mine.status).toBe(200);
    expect(mine.body).toHaveLength(1);
    const hidden = await stack.get<{ code: string }>(
      history(`namespaces/${HIDDEN}/deployment/${TWIN}`),
      alice,
    );
    expect(hidden.status).toBe(403);
    expect(hidden.body.code).toBe('forbidden');
    const at = await stack.get<{ code: string }>(
      history(`namespaces/${HIDDEN}/deployment/${TWIN}?at=0s`),
      alice,
    );
    expect(at.status).toBe(403);
    expect((await stack.get(history(`namespaces/${HIDDEN}/deployment/${TWIN}?at=0s`))).status).toBe(200);
  });

  it('looks for a name without a namespace only where alice may get it', async () => {
    // The admin finds the name in two namespaces; alice only in hers.
    expect((await stack.get(history(`deployment/${TWIN}`))).status).toBe(409);
    const twin = await stack.get<ObjectChange[]>(history(`deployment/${TWIN}`), alice);
    expect(twin.status).toBe(200);
    expect(twin.body).toHaveLength(1);
    // Held only where she may not get it: the cluster-scope refusal, which says nothing of where.
    const only = await stack.get<{ code: string; detail: string }>(history(`deployment/${ONLY}`), alice);
    expect(only.status).toBe(403);
    expect(only.body.detail).not.toContain(HIDDEN);
    expect((await stack.get(history(`deployment/${ONLY}`))).status).toBe(200);
  });
});

describe('the feed needs list of the kind where it looks', () => {
  const names = (body: ClusterChange[]) =>
    body
      .filter((c) => c.ref.name === TWIN || c.ref.name === ONLY)
      .map((c) => `${c.ref.namespace}/${c.ref.name}`)
      .sort();

  it('holds only alice’s namespaces across namespaces, with or without a kind', async () => {
    for (const query of ['kind=deployment', ''] as const) {
      const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?${query}&limit=1000`, alice);
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual([`${SHOP}/${TWIN}`]);
      expect(res.body.every((c) => c.ref.namespace === SHOP)).toBe(true);
      const admin = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?${query}&limit=1000`);
      expect(names(admin.body)).toEqual([`${HIDDEN}/${ONLY}`, `${HIDDEN}/${TWIN}`, `${SHOP}/${TWIN}`]);
    }
  });

  it('is a 403 for a kind in a namespace alice may not list it in, list and watch alike', async () => {
    const query = `namespace=${HIDDEN}&kind=deployment`;
    const res = await stack.get<{ code: string }>(`${stack.cluster}/changes?${query}`, alice);
    expect(res.status).toBe(403);
    expect(res.body.code).toBe('forbidden');
    const w = await openChangeWatch(stack, { query, headers: alice });
    expect(w.status).toBe(403);
    expect((await stack.get(`${stack.cluster}/changes?${query}`)).status).toBe(200);
  });

  it('holds nothing, without a kind, of a namespace where alice may list nothing', async () => {
    const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?namespace=${HIDDEN}`, alice);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    const admin = await stack.get<ClusterChange[]>(`${stack.cluster}/changes?namespace=${HIDDEN}`);
    expect(admin.body.length).toBeGreaterThan(0);
  });

  it('holds nothing for someone bound to nothing', async () => {
    const res = await stack.get<ClusterChange[]>(`${stack.cluster}/changes`, bob);
    expect(res.status).toBe(200);
    expect(res.body).toEqual([]);
    expect(res.headers.get('x-total')).toBe('0');
  });

  it('watches only alice’s namespaces across namespaces', async () => {
    const w = await openChangeWatch(stack, {
      query: 'kind=deployment&sendInitialEvents=false',
      headers: alice,
      ndjson: true,
    });
    try {
      expect(w.status).toBe(200);
      await w.until((r) => r.type === 'SYNCED');
      editDeployment(stack, HIDDEN, TWIN, (d) => {
        d.spec.replicas = 7;
      });
      const rv = editDeployment(stack, SHOP, TWIN, (d) => {
        d.spec.replicas = 7;
      });
      const got = await w.until((r) => r.type === 'ADDED' && r.change.resourceVersion === rv);
      expect(got.record.type === 'ADDED' && got.record.change.ref.namespace).toBe(SHOP);
      expect(w.records.filter((r) => r.record.type === 'ADDED')).toHaveLength(1);
    } finally {
      w.close();
    }
  });
});
