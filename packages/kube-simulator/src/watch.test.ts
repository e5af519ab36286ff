import { CoreV1Api, type KubeConfig, makeInformer, Watch } from '@kubernetes/client-node';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders, harness, until } from './harness.test-support';
import { DEMO_PODS, type Simulator } from './index';

let sim: Simulator;
let kc: KubeConfig;
let core: CoreV1Api;

beforeAll(async () => {
  ({ sim, kc } = await harness({ bookmarkMs: 100 }));
  core = kc.makeApiClient(CoreV1Api);
});
afterAll(() => sim.close());

interface Seen {
  type: string;
  name: string;
  rv: string;
  code?: number;
}

/** Starts a client-node watch and records what arrives; stop() aborts and swallows the AbortError. */
async function watchPath(path: string, params: Record<string, string | number | boolean | undefined>) {
  const seen: Seen[] = [];
  let doneErr: unknown = 'running';
  const ctrl = await new Watch(kc).watch(
    path,
    params,
    (type, obj: { metadata?: { name?: string; resourceVersion?: string }; code?: number }) => {
      seen.push({
        type,
        name: obj.metadata?.name ?? '',
        rv: obj.metadata?.resourceVersion ?? '',
        ...(obj.code ? { code: obj.code } : {}),
      });
    },
    (err) => {
      doneErr = err;
    },
  );
  return {
    seen,
    done: () => doneErr !== 'running',
    error: () => doneErr,
    stop: () => ctrl.abort(),
  };
}

function scratchPod(name: string, labels: Record<string, string>) {
  return {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, namespace: 'default', labels },
    spec: { containers: [{ name: 'app', image: 'busybox:1.36' }] },
    status: { phase: 'Pending' as const },
  };
}

describe('watch', () => {
  it('streams ADDED, MODIFIED and DELETED from a list resourceVersion', async () => {
    const list = await core.listNamespacedPod({ namespace: 'default' });
    const w = await watchPath('/api/v1/namespaces/default/pods', {
      resourceVersion: list.metadata?.resourceVersion,
    });
    sim.store.upsert(scratchPod('watch-me', { app: 'scratch' }));
    const pod = sim.store.get('pods', 'default', 'watch-me');
    sim.store.upsert({ ...scratchPod('watch-me', { app: 'scratch', changed: 'yes' }) });
    sim.store.remove('pods', 'default', 'watch-me');
    // A change in another namespace must not reach a namespaced watch.
    sim.store.upsert({ ...scratchPod('elsewhere', {}), metadata: { name: 'elsewhere', namespace: 'shop' } });
    await until(() => w.seen.length >= 3);
    w.stop();
    expect(pod?.metadata.uid).toBeTruthy();
    expect(w.seen.map((s) => `${s.type}:${s.name}`)).toEqual([
      'ADDED:watch-me',
      'MODIFIED:watch-me',
      'DELETED:watch-me',
    ]);
    const rvs = w.seen.map((s) => Number(s.rv));
    expect(rvs).toEqual([...rvs].sort((a, b) => a - b));
    sim.store.remove('pods', 'shop', 'elsewhere');
  });

  it('sends synthetic ADDED for every object when no resourceVersion is given', async () => {
    const w = await watchPath('/api/v1/namespaces/demo-broken/pods', {});
    await until(() => w.seen.length >= 8);
    w.stop();
    expect(w.seen.every((s) => s.type === 'ADDED')).toBe(true);
    expect(w.seen.map((s) => s.name)).toContain(DEMO_PODS.crashLoop.name);
  });

  it('turns selector transitions into ADDED/DELETED', async () => {
    const rv = String(sim.store.rv);
    const w = await watchPath('/api/v1/pods', { resourceVersion: rv, labelSelector: 'flavour=blue' });
    sim.store.upsert(scratchPod('chameleon', { flavour: 'red' }));
    sim.store.upsert(scratchPod('chameleon', { flavour: 'blue' }));
    sim.store.upsert(scratchPod('chameleon', { flavour: 'blue', more: '1' }));
    sim.store.upsert(scratchPod('chameleon', { flavour: 'green' }));
    await until(() => w.seen.length >= 3);
    w.stop();
    expect(w.seen.map((s) => s.type)).toEqual(['ADDED', 'MODIFIED', 'DELETED']);
    sim.store.remove('pods', 'default', 'chameleon');
  });

  it('answers a too-old resourceVersion with an ERROR event carrying 410 Expired', async () => {
    sim.store.compact();
    const w = await watchPath('/api/v1/pods', { resourceVersion: '1' });
    await until(() => w.done());
    expect(w.seen).toEqual([{ type: 'ERROR', name: '', rv: '', code: 410 }]);
    const raw = await fetch(`${sim.url}/api/v1/pods?watch=true&resourceVersion=1`, {
      headers: authHeaders(),
    });
    const line = JSON.parse((await raw.text()).trim());
    expect(line.object).toMatchObject({ kind: 'Status', status: 'Failure', reason: 'Expired', code: 410 });
    expect(line.object.message).toMatch(/^too old resource version: 1 \(\d+\)$/);
  });

  it('sends BOOKMARK events when asked', async () => {
    const w = await watchPath('/api/v1/namespaces', {
      resourceVersion: String(sim.store.rv),
      allowWatchBookmarks: true,
    });
    await until(() => w.seen.some((s) => s.type === 'BOOKMARK'));
    w.stop();
    expect(Number(w.seen.find((s) => s.type === 'BOOKMARK')?.rv)).toBeGreaterThan(0);
  });

  it('ends the stream after timeoutSeconds', async () => {
    const w = await watchPath('/api/v1/namespaces', {
      resourceVersion: String(sim.store.rv),
      timeoutSeconds: 1,
    });
    await until(() => w.done(), 3000);
    expect(w.error()).toBeNull();
  });
});

describe('informer', () => {
  it('lists, then sees adds and updates through ListWatch', async () => {
    const informer = makeInformer(kc, '/api/v1/namespaces/default/pods', () =>
      core.listNamespacedPod({ namespace: 'default' }),
    );
    const added: string[] = [];
    const updated: string[] = [];
    const errors: unknown[] = [];
    informer.on('add', (p) => added.push(p.metadata?.name ?? ''));
    informer.on('update', (p) => updated.push(p.metadata?.name ?? ''));
    informer.on('error', (e) => errors.push(e));
    await informer.start();
    await until(() => added.length >= 2);
    sim.store.upsert(scratchPod('informed', { app: 'x' }));
    await until(() => added.includes('informed'));
    sim.store.upsert(scratchPod('informed', { app: 'y' }));
    await until(() => updated.includes('informed'));
    await informer.stop();
    expect(informer.list().map((p) => p.metadata?.name)).toContain('informed');
    expect(errors.filter((e) => !(e instanceof Error && e.name === 'AbortError'))).toEqual([]);
    sim.store.remove('pods', 'default', 'informed');
  });
});
