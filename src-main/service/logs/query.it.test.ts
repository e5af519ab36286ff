import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Problem } from '../../../src-shared/contract/problem';
import { type Stack, startStack } from '../test-support/harness.test-support';
import { linesOf, logPath, rawOf, readAll } from './stream-client.test-support';

let stack: Stack;
beforeAll(async () => {
  stack = await startStack({ service: { timeoutMs: 1_500 } });
});
afterAll(async () => stack?.close());

const { payments, checkout, coredns, frontend, crashLoop, imagePullBackOff, kubeProxyOnNotReadyNode } =
  DEMO_PODS;
const path = (p: { namespace: string; name: string }, query = '') =>
  logPath(stack, p.namespace, p.name, query);

async function problemOf(p: string, headers: Record<string, string> = {}) {
  const res = await stack.get<Problem>(p, headers);
  expect(res.contentType).toMatch(/^application\/problem\+json/);
  return res;
}

describe('parsing', () => {
  it.each([
    ['JSON', checkout, 'json', ['INFO', 'WARN']],
    ['logfmt', payments, 'logfmt', ['INFO']],
    ['[LEVEL]', coredns, 'prefix', ['INFO']],
    ['access', frontend, 'plain', ['UNKNOWN']],
  ] as const)('recognises %s logs and their levels', async (_label, pod, format, levels) => {
    const s = await readAll(stack, path(pod, `container=${pod.container}`));
    const lines = linesOf(s);
    expect(lines.length).toBeGreaterThan(5);
    expect(lines.some((l) => l.format === format)).toBe(true);
    const seen = new Set(lines.map((l) => l.level));
    for (const level of levels) expect(seen).toContain(level);
    for (const l of lines) expect(l.ts).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{9}Z$/);
  });

  it('normalises every level and keeps unlevelled lines as UNKNOWN', async () => {
    const { namespace, name, container } = payments;
    const written = [
      ['{"level":"error","msg":"json error"}', 'ERROR', 'json'],
      ['{"severity":"WARNING","message":"json warning"}', 'WARN', 'json'],
      ['level=info msg="logfmt info" k=v', 'INFO', 'logfmt'],
      ['[DEBUG] bracket debug', 'DEBUG', 'prefix'],
      ['TRACE: colon trace', 'TRACE', 'prefix'],
      ['a plain line without a level', 'UNKNOWN', 'plain'],
    ] as const;
    for (const [text] of written) stack.sim.store.appendLog(namespace, name, container, text);
    const lines = linesOf(await readAll(stack, path(payments, 'tailLines=6')));
    expect(lines.map((l) => [l.raw, l.level, l.format])).toEqual(written.map((w) => [...w]));
    expect(lines[0]).toMatchObject({ message: 'json error', fields: { level: 'error', msg: 'json error' } });
    expect(lines[2]!.fields).toMatchObject({ k: 'v' });
    const lean = linesOf(await readAll(stack, path(payments, 'tailLines=6&fields=false')));
    expect(lean.map((l) => [l.raw, l.level])).toEqual(written.map(([raw, level]) => [raw, level]));
    for (const l of lean) expect(l.fields).toBeUndefined();
  });
});

describe('selection', () => {
  it('tailLines counts from the end and timestamps are kept or dropped in text', async () => {
    const s = await readAll(stack, path(checkout, 'tailLines=5&container=checkout&timestamps=true'), false);
    expect(s.lines).toHaveLength(5);
    for (const l of s.lines) expect(l).toMatch(/^\d{4}-\d\d-\d\dT\S+Z \{/);
    const plain = await readAll(stack, path(checkout, 'tailLines=5&container=checkout'), false);
    expect(plain.lines.map((l) => l.slice(0, 1))).toEqual(['{', '{', '{', '{', '{']);
    expect(plain.contentType).toMatch(/^text\/plain/);
  });

  it('since and until keep exactly the lines inside the range, to the millisecond', async () => {
    const all = linesOf(await readAll(stack, path(checkout, 'container=checkout')));
    const times = all.map((l) => l.time!);
    const from = times[Math.floor(times.length / 3)]!;
    const to = times[Math.floor((2 * times.length) / 3)]!;
    const q = `container=checkout&since=${new Date(from).toISOString()}&until=${new Date(to).toISOString()}`;
    const ranged = linesOf(await readAll(stack, path(checkout, q)));
    expect(ranged.map((l) => l.raw)).toEqual(
      all.filter((l) => l.time! >= from && l.time! <= to).map((l) => l.raw),
    );
    const recent = linesOf(await readAll(stack, path(checkout, 'container=checkout&since=1h')));
    expect(recent.every((l) => l.time! >= Date.now() - 3_600_000 - 1_000)).toBe(true);
  });

  it('reads the previous instance', async () => {
    const s = await readAll(stack, path(crashLoop, 'previous=true'));
    const raws = rawOf(s);
    expect(raws.some((r) => r.startsWith('panic:'))).toBe(true);
  });

  it('merges the pods of a deployment in time order, tagged in text as in ndjson', async () => {
    const lines = linesOf(
      await readAll(stack, logPath(stack, 'shop', 'checkout', 'tailLines=20', 'deployment')),
    );
    expect(new Set(lines.map((l) => l.pod)).size).toBeGreaterThan(1);
    const times = lines.map((l) => l.time!);
    expect(times).toEqual([...times].sort((a, b) => a - b));
    const text = await readAll(stack, logPath(stack, 'shop', 'checkout', 'tailLines=3', 'deployment'), false);
    for (const l of text.lines) expect(l).toMatch(/^\[checkout-[a-z0-9-]+\/checkout\] /);
  });
});

describe('filters', () => {
  it('filters by level; UNKNOWN stays unless hidden', async () => {
    const { namespace, name, container } = payments;
    for (const t of ['level=error msg=e1', 'level=warn msg=w1', 'level=info msg=i1', 'no level here'])
      stack.sim.store.appendLog(namespace, name, container, t);
    const levels = async (q: string) =>
      linesOf(await readAll(stack, path(payments, `tailLines=4&${q}`))).map((l) => l.level);
    expect(await levels('level=ERROR,WARN')).toEqual(['ERROR', 'WARN', 'UNKNOWN']);
    expect(await levels('level=error,-unknown')).toEqual(['ERROR']);
    expect(await levels('level=-INFO')).toEqual(['ERROR', 'WARN', 'UNKNOWN']);
  });

  it('searches by regex with grep -C context and separators', async () => {
    const { namespace, name, container } = payments;
    const block = ['a0', 'a1', 'NEEDLE one', 'a3', 'a4', 'a5', 'a6', 'needle two', 'a8'];
    for (const t of block) stack.sim.store.appendLog(namespace, name, container, t);
    const text = await readAll(
      stack,
      path(payments, 'tailLines=9&search=needle&ignoreCase=true&context=1'),
      false,
    );
    expect(text.lines).toEqual(['a1', 'NEEDLE one', 'a3', '--', 'a6', 'needle two', 'a8']);
    const s = await readAll(
      stack,
      path(payments, `tailLines=9&search=${encodeURIComponent('ne+dle')}&context=1`),
    );
    expect(s.records.map((r) => (r.type === 'line' ? `${r.raw}:${r.match}` : r.type))).toEqual([
      'a6:false',
      'needle two:true',
      'a8:false',
    ]);
  });
});

describe('errors', () => {
  it('a container waiting to start is a 400 with the kubelet reason', async () => {
    const res = await problemOf(path(imagePullBackOff));
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'log_unavailable', clusterStatus: 400 });
    expect(res.body.detail).toMatch(/is waiting to start: trying and failing to pull image/);
  });

  it('no previous instance is a 400 with the kubelet reason', async () => {
    const res = await problemOf(path(checkout, 'previous=true&container=checkout'));
    expect(res.status).toBe(400);
    expect(res.body.detail).toMatch(/previous terminated container "checkout" in pod ".+" not found/);
  });

  it('a kubelet the apiserver cannot reach is a 502 with its words', async () => {
    const res = await problemOf(path(kubeProxyOnNotReadyNode));
    expect(res.status).toBe(502);
    expect(res.body).toMatchObject({ code: 'cluster_error', clusterStatus: 500 });
    expect(res.body.detail).toMatch(/no route to host/);
  });

  it('unknown pod, container and workload', async () => {
    expect((await problemOf(path({ namespace: 'shop', name: 'nope' }))).body).toMatchObject({
      status: 404,
      code: 'resource_not_found',
    });
    const bad = await problemOf(path(checkout, 'container=nope'));
    expect(bad.body).toMatchObject({
      status: 400,
      code: 'invalid_parameter',
      containers: ['checkout', 'envoy'],
    });
    const wl = await problemOf(logPath(stack, 'shop', 'nope', '', 'deployment'));
    expect(wl.body).toMatchObject({ status: 404, code: 'resource_not_found' });
    const svc = await problemOf(logPath(stack, 'shop', 'checkout', '', 'service'));
    expect(svc.body).toMatchObject({ status: 400, code: 'invalid_resource_type' });
  });

  it('refuses bad queries before asking the cluster', async () => {
    const cases: [string, string][] = [
      ['search=(unclosed', 'invalid_query'],
      ['level=LOUD', 'invalid_query'],
      ['since=yesterday', 'invalid_query'],
      ['tailLines=-1', 'invalid_query'],
      ['context=5000', 'invalid_query'],
      ['bogus=1', 'unknown_query_parameter'],
      ['since=2026-11-22T10:00:00Z&until=2026-11-22T09:00:00Z', 'invalid_query'],
    ];
    for (const [q, code] of cases)
      expect((await problemOf(path(payments, q))).body, q).toMatchObject({ status: 400, code });
  });

  it('answers 406 to an Accept it cannot produce, 401 without credentials', async () => {
    expect((await problemOf(path(payments), { accept: 'application/json' })).body).toMatchObject({
      status: 406,
      code: 'not_acceptable',
    });
    const res = await fetch(stack.url + path(payments));
    expect(res.status).toBe(401);
  });

  it('maps a cluster that refuses our credentials or does not answer', async () => {
    stack.sim.faults.unauthorized = true;
    try {
      expect((await problemOf(path(payments))).body).toMatchObject({
        status: 502,
        code: 'cluster_unauthorized',
      });
    } finally {
      stack.sim.faults.unauthorized = false;
    }
    stack.sim.faults.hang = true;
    try {
      expect((await problemOf(path(payments, 'follow=true'))).body).toMatchObject({
        status: 504,
        code: 'cluster_timeout',
      });
      expect((await problemOf(path(payments))).body).toMatchObject({ status: 504, code: 'cluster_timeout' });
    } finally {
      stack.sim.faults.hang = false;
    }
  });
});
