/**
 * Counts, search and relations against a cluster that refuses some kinds or whose watch breaks,
 * over real HTTP: an HTTP proxy between the service and the simulator records every request the
 * service sends (path, query, Accept) and answers 403 for the paths a test forbids, as RBAC would,
 * or cuts a kind's watch and refuses it from then on. So the tests see what a count asks the
 * cluster (one `limit=1` list for metadata only, kept a while), what a forbidden kind does to each
 * answer, and that an answer read from a stale cache says so.
 */
import { createServer, request, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { KubeObject } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KindCount, Relations, SearchHit } from '../../../src-shared/contract/relations-operations';
import { eventually } from '../test-support/eventually.test-support';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { METADATA_ONLY } from './cluster-source';

interface Seen {
  path: string;
  query: URLSearchParams;
  accept: string | undefined;
}

interface Proxy {
  url: string;
  seen: Seen[];
  /** Paths (collection paths, any namespace prefix removed) answered 403. */
  forbidden: Set<string>;
  /** Ends the open watches of a path; with `forbidden`, the kind's watch breaks for good. */
  cut(path: string): void;
  server: Server;
}

const collectionOf = (path: string) => path.replace(/\/namespaces\/[^/]+/, '');

async function startProxy(target: string): Promise<Proxy> {
  const seen: Seen[] = [];
  const forbidden = new Set<string>();
  const open = new Map<ServerResponse, string>();
  const upstream = new URL(target);
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', target);
    seen.push({ path: url.pathname, query: url.searchParams, accept: req.headers.accept });
    if (forbidden.has(collectionOf(url.pathname))) {
      res.writeHead(403, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          kind: 'Status',
          apiVersion: 'v1',
          status: 'Failure',
          reason: 'Forbidden',
          code: 403,
          message: `${url.pathname} is forbidden: User "test" cannot list this resource`,
        }),
      );
      return;
    }
    open.set(res, collectionOf(url.pathname));
    const out = request(
      {
        host: upstream.hostname,
        port: upstream.port,
        path: req.url,
        method: req.method,
        headers: req.headers,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    res.on('close', () => {
      open.delete(res);
      out.destroy();
    });
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    seen,
    forbidden,
    cut(path) {
      for (const [res, p] of open) if (p === path) res.destroy();
    },
    server,
  };
}

let stack: Stack;
let proxy: Proxy;
beforeAll(async () => {
  stack = await startStack({
    clusterServer: async (sim) => {
      proxy = await startProxy(sim.url);
      return proxy.url;
    },
  });
});
afterAll(async () => {
  await stack?.close();
  proxy?.server.closeAllConnections();
  await new Promise<void>((resolve) => (proxy ? proxy.server.close(() => resolve()) : resolve()));
});

const lists = (path: string) => proxy.seen.filter((s) => s.path === path && s.query.get('watch') !== '1');
const counts = (query: string) => stack.get<KindCount[]>(`${stack.cluster}/counts?${query}`);

describe('a count', () => {
  it('asks the cluster one limit=1 list for metadata only, and keeps its answer', async () => {
    const path = '/apis/rbac.authorization.k8s.io/v1/clusterroles';
    const first = await counts('resourceTypes=clusterrole');
    expect(first.body).toEqual([
      {
        resourceType: 'clusterrole',
        count: stack.sim.store.count('clusterroles'),
        exact: true,
        source: 'list',
      },
    ]);
    expect(lists(path)).toHaveLength(1);
    const [sent] = lists(path);
    expect(sent!.query.get('limit')).toBe('1');
    expect(sent!.accept).toBe(METADATA_ONLY);
    // The next count within the time it is kept asks nothing.
    await counts('resourceTypes=clusterrole');
    expect(lists(path)).toHaveLength(1);
    // In a namespace: the namespace's collection.
    await counts('namespace=kube-system&resourceTypes=configmap');
    expect(lists('/api/v1/namespaces/kube-system/configmaps')).toHaveLength(1);
  });

  it('of a kind the cluster forbids is its error; the other kinds are counted', async () => {
    proxy.forbidden.add('/api/v1/limitranges');
    try {
      const res = await counts('resourceTypes=limitrange,serviceaccount');
      expect(res.status).toBe(200);
      expect(res.body[0]).toEqual({
        resourceType: 'limitrange',
        exact: false,
        source: 'list',
        error: expect.stringMatching(/^cluster_unauthorized: .*forbidden/),
      });
      expect(res.body[1]).toMatchObject({ resourceType: 'serviceaccount', count: expect.any(Number) });
    } finally {
      proxy.forbidden.delete('/api/v1/limitranges');
    }
  });
});

describe('search', () => {
  it('leaves out a kind it cannot read, unless that kind is named', async () => {
    proxy.forbidden.add('/api/v1/persistentvolumeclaims');
    try {
      const res = await stack.get<SearchHit[]>(`${stack.cluster}/search?q=data-&limit=100`);
      expect(res.status).toBe(200);
      expect(res.body.some((h) => h.resourceType === 'persistentvolumeclaim')).toBe(false);
      const named = await stack.get(
        `${stack.cluster}/search?q=data-&resourceTypes=persistentvolumeclaim,pod`,
      );
      expect(named.status).toBe(502);
      expect(named.body).toMatchObject({ code: 'cluster_unauthorized' });
    } finally {
      proxy.forbidden.delete('/api/v1/persistentvolumeclaims');
    }
  });
});

describe('an answer from a stale cache', () => {
  it('carries x-Stale-Since, relations and search alike', async () => {
    const put = (o: Record<string, unknown>) => stack.sim.store.upsert(o as unknown as KubeObject);
    put({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: 'stale-probe', namespace: 'default' },
      data: {},
    });
    put({
      apiVersion: 'v1',
      kind: 'Secret',
      metadata: { name: 'stale-secret', namespace: 'default' },
      data: {},
    });
    const rel = () =>
      stack.get<Relations>(`${stack.cluster}/relations/namespaces/default/configmap/stale-probe`);
    const hits = () =>
      stack.get<SearchHit[]>(`${stack.cluster}/search?q=stale-probe&resourceTypes=configmap`);
    await eventually(async () => expect((await rel()).status).toBe(200), 10_000);
    expect((await rel()).headers.get('x-stale-since')).toBeNull();
    expect((await hits()).headers.get('x-stale-since')).toBeNull();
    // Secrets listed too, so that their cache can go stale after the ConfigMaps'; named last, so
    // that an answer taking the last stale time it read instead of the earliest would show it.
    const both = () =>
      stack.get<SearchHit[]>(`${stack.cluster}/search?q=stale-&resourceTypes=configmap,secret`);
    expect((await both()).body.map((h) => h.name)).toEqual(['stale-probe', 'stale-secret']);
    proxy.forbidden.add('/api/v1/configmaps');
    proxy.cut('/api/v1/configmaps');
    try {
      let since = '';
      await eventually(async () => {
        const r = await rel();
        expect(r.status).toBe(200);
        since = r.headers.get('x-stale-since') ?? '';
        expect(since).toMatch(/^\d{4}-\d\d-\d\dT/);
      }, 15_000);
      const h = await hits();
      expect(h.body.map((x) => x.name)).toEqual(['stale-probe']);
      expect(h.headers.get('x-stale-since')).toBe(since);
      // Named without its namespace, the same.
      const plain = await stack.get<Relations>(`${stack.cluster}/relations/configmap/stale-probe`);
      expect(plain.headers.get('x-stale-since')).toBe(since);
      // A second kind stale since later: the answer is as stale as its stalest cache.
      await new Promise((r) => setTimeout(r, 20));
      proxy.forbidden.add('/api/v1/secrets');
      proxy.cut('/api/v1/secrets');
      await eventually(async () => {
        const s = await stack.get<Relations>(
          `${stack.cluster}/relations/namespaces/default/secret/stale-secret`,
        );
        expect(s.headers.get('x-stale-since') ?? '').toMatch(/^\d{4}/);
        expect(s.headers.get('x-stale-since')).not.toBe(since);
      }, 15_000);
      expect((await both()).headers.get('x-stale-since')).toBe(since);
    } finally {
      proxy.forbidden.delete('/api/v1/configmaps');
      proxy.forbidden.delete('/api/v1/secrets');
    }
  });
});
