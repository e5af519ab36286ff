import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { authHeaders } from './harness.test-support';
import { type Simulator, startSimulator } from './index';
import type { Change } from './store';

/**
 * PUT of one object (`kubectl replace`): the edit a test or e2e makes to see a change recorded. The
 * answers are the apiserver's, and watches see the edit as MODIFIED.
 */

let sim: Simulator;
beforeAll(async () => {
  sim = await startSimulator();
});
afterAll(() => sim.close());

const CM = '/api/v1/namespaces/shop/configmaps';

async function send(method: string, path: string, body?: unknown) {
  const res = await fetch(sim.url + path, {
    method,
    headers: { ...authHeaders(), 'Content-Type': 'application/json' },
    ...(body === undefined ? {} : { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  // biome-ignore lint/suspicious/noExplicitAny: parsed JSON documents, inspected by assertions only
  return { status: res.status, body: (await res.json()) as any };
}

const configMap = (name: string, data: Record<string, string>, extra: Record<string, unknown> = {}) => ({
  apiVersion: 'v1',
  kind: 'ConfigMap',
  metadata: { name, ...extra },
  data,
});

describe('PUT of one object', () => {
  it('replaces it, keeping its uid and creationTimestamp, at a new resourceVersion seen by watches', async () => {
    const created = await send('POST', CM, configMap('edit-me', { a: '1' }));
    expect(created.status).toBe(201);
    const seen: Change[] = [];
    const stop = sim.store.subscribe('configmaps', (c) => seen.push(c));
    try {
      const replaced = await send('PUT', `${CM}/edit-me`, configMap('edit-me', { a: '2', b: '3' }));
      expect(replaced.status).toBe(200);
      expect(replaced.body.data).toEqual({ a: '2', b: '3' });
      expect(replaced.body.metadata.uid).toBe(created.body.metadata.uid);
      expect(replaced.body.metadata.creationTimestamp).toBe(created.body.metadata.creationTimestamp);
      expect(Number(replaced.body.metadata.resourceVersion)).toBeGreaterThan(
        Number(created.body.metadata.resourceVersion),
      );
      expect(seen.map((c) => [c.type, c.object.data])).toEqual([['MODIFIED', { a: '2', b: '3' }]]);
      expect((await send('GET', `${CM}/edit-me`)).body.data).toEqual({ a: '2', b: '3' });
    } finally {
      stop();
    }
  });

  it('refuses a stale resourceVersion with 409 Conflict and accepts the current one', async () => {
    const created = await send('POST', CM, configMap('guarded', { a: '1' }));
    const rv = created.body.metadata.resourceVersion as string;
    expect(
      (await send('PUT', `${CM}/guarded`, configMap('guarded', { a: '2' }, { resourceVersion: rv }))).status,
    ).toBe(200);
    const stale = await send(
      'PUT',
      `${CM}/guarded`,
      configMap('guarded', { a: '3' }, { resourceVersion: rv }),
    );
    expect(stale.status).toBe(409);
    expect(stale.body.reason).toBe('Conflict');
    expect((await send('GET', `${CM}/guarded`)).body.data).toEqual({ a: '2' });
  });

  it('answers 404 for no such object, 400 for another name or kind, and 405 for a kind without update', async () => {
    expect((await send('PUT', `${CM}/nothing-here`, configMap('nothing-here', {}))).status).toBe(404);
    await send('POST', CM, configMap('named', { a: '1' }));
    expect((await send('PUT', `${CM}/named`, configMap('other', {}))).status).toBe(400);
    expect((await send('PUT', `${CM}/named`, configMap('named', {}, { namespace: 'default' }))).status).toBe(
      400,
    );
    expect(
      (await send('PUT', `${CM}/named`, { apiVersion: 'v1', kind: 'Secret', metadata: {} })).status,
    ).toBe(400);
    expect((await send('PUT', `${CM}/named`, '{not json')).status).toBe(400);
    expect((await send('GET', `${CM}/named`)).body.data).toEqual({ a: '1' });
    expect((await send('PUT', '/api/v1/namespaces/shop/bindings/x', {})).status).toBe(405);
  });
});
