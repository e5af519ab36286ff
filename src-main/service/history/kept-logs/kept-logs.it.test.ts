/**
 * The logs of dead containers, end to end (issue 27 §3): the simulator's containers crash, finish
 * and get deleted; the service, over real HTTP and through the invoker IPC uses, answers what it
 * kept — after the kubelet (and the pod) forgot it.
 */
import { finishPod } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { KeptRunRecord } from '../../../../src-shared/contract/kept-log-operations';
import type { LogRecord } from '../../../../src-shared/contract/log-models';
import type { Principal } from '../../context';
import { addNamespace, addPod, uniqueName, write } from '../../logs/fixtures.test-support';
import { linesOf, logPath, openStream } from '../../logs/stream-client.test-support';
import { eventually } from '../../test-support/eventually.test-support';
import { CLUSTER_ID, type Stack, startStack } from '../../test-support/harness.test-support';

const WAIT = 15_000;

const keptPath = (stack: Stack, ns: string, pod: string, rest = '') =>
  `${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}/kept-logs${rest}`;

async function kept(stack: Stack, ns: string, pod: string): Promise<KeptRunRecord[]> {
  const res = await stack.get<KeptRunRecord[]>(keptPath(stack, ns, pod));
  expect(res.status).toBe(200);
  return res.body;
}

/** Waits until the pod has `n` kept runs, and answers them. */
const keptRuns = (stack: Stack, ns: string, pod: string, n: number) =>
  eventually(async () => {
    const runs = await kept(stack, ns, pod);
    expect(runs).toHaveLength(n);
    return runs;
  }, WAIT);

/** A read of the pods that makes the cluster viewed, so it is recorded and its pods watched. */
async function view(stack: Stack): Promise<void> {
  expect((await stack.get(`${stack.cluster}/kubernetes-proxy/pod?limit=1`)).status).toBe(200);
}

async function principalOf(stack: Stack): Promise<Principal> {
  const p = await stack.service.auth.principalForAccessToken(stack.session.accessToken);
  if (!p) throw new Error('the admin session has no principal');
  return p;
}

/** The service's kept-logs feature. */
function keptLogsOf(stack: Stack) {
  const k = stack.service.recorded.keptLogs;
  if (!k) throw new Error('no kept logs feature');
  return k;
}

async function drain(chunks: AsyncIterable<string>): Promise<string> {
  let out = '';
  for await (const c of chunks) out += c;
  return out;
}

describe('kept logs, default mode (failed runs)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
    await view(stack);
  });
  afterAll(async () => stack?.close());

  it('keep the last lines of a crashed run, read as previous at once, and answer them after the pod is gone', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('crash');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'starting', 'panic: config key missing');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 2, reason: 'Error' });
    write(stack, ns, pod, 'app', 'second run');

    const [run] = await keptRuns(stack, ns, pod, 1);
    expect(run).toMatchObject({ container: 'app', restartCount: 0, exitCode: 2, reason: 'Error', lines: 2 });
    expect(Date.parse(run!.finishedAt)).not.toBeNaN();

    const text = await stack.get<string>(keptPath(stack, ns, pod, '/app/0'));
    expect(text.status).toBe(200);
    expect(text.contentType).toMatch(/^text\/plain/);
    expect(text.body).toBe('starting\npanic: config key missing\n');

    const stamped = await stack.get<string>(keptPath(stack, ns, pod, '/app/0?timestamps=true&tailLines=1'));
    expect(stamped.body).toMatch(/^\d{4}-\d\d-\d\dT[^ ]+Z panic: config key missing\n$/);

    const nd = await fetch(stack.url + keptPath(stack, ns, pod, '/app/0'), {
      headers: { ...stack.session.headers, accept: 'application/x-ndjson' },
    });
    expect(nd.headers.get('content-type')).toMatch(/^application\/x-ndjson/);
    const records = (await nd.text())
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as LogRecord);
    expect(records.map((r) => r.type === 'line' && r.raw)).toEqual(['starting', 'panic: config key missing']);
    expect(records[1]).toMatchObject({ type: 'line', pod, container: 'app' });

    const searched = await stack.get<string>(keptPath(stack, ns, pod, '/app/0?search=panic'));
    expect(searched.body).toBe('panic: config key missing\n');

    // The pod goes, and the kubelet's copy with it: Skiff's stays.
    stack.sim.store.remove('pods', ns, pod);
    await eventually(async () => {
      const live = await stack.get(`${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}`);
      expect(live.status).toBe(404);
    }, WAIT);
    expect(await kept(stack, ns, pod)).toEqual([run]);
    expect((await stack.get<string>(keptPath(stack, ns, pod, '/app/0'))).body).toBe(
      'starting\npanic: config key missing\n',
    );
  });

  it('filter a kept run as the live endpoint filters: level, search (case, regex), context, tailLines, podUid', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('filters');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(
      stack,
      ns,
      pod,
      'app',
      'INFO starting',
      'INFO loading config',
      'ERROR Panic: no config',
      'INFO shutting down',
    );
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    const [run] = await keptRuns(stack, ns, pod, 1);
    const read = async (query: string) => {
      const res = await stack.get<string>(keptPath(stack, ns, pod, `/app/0?${query}`));
      expect(res.status, query).toBe(200);
      return res.body;
    };
    const all = 'INFO starting\nINFO loading config\nERROR Panic: no config\nINFO shutting down\n';
    expect(await read('')).toBe(all);
    expect(await read('level=ERROR')).toBe('ERROR Panic: no config\n');
    expect(await read('level=-INFO')).toBe('ERROR Panic: no config\n');
    expect(await read('search=panic')).toBe('');
    expect(await read('search=panic&ignoreCase=true')).toBe('ERROR Panic: no config\n');
    expect(await read('search=P.n[a-z]c')).toBe('ERROR Panic: no config\n');
    expect(await read('search=Panic&context=1')).toBe(
      'INFO loading config\nERROR Panic: no config\nINFO shutting down\n',
    );
    expect(await read('search=starting%7Cdown&context=0')).toBe('INFO starting\nINFO shutting down\n');
    expect(await read('context=1')).toBe(all);
    expect(await read('tailLines=2')).toBe('ERROR Panic: no config\nINFO shutting down\n');
    expect(await read('tailLines=0')).toBe('');
    expect(await read(`podUid=${run!.podUid}&tailLines=1`)).toBe('INFO shutting down\n');
    const other = await stack.get<{ code: string }>(keptPath(stack, ns, pod, '/app/0?podUid=another-pod'));
    expect(other.status).toBe(404);
    // NDJSON carries a structured line's fields unless fields=false, as the live endpoint does.
    const json = uniqueName('json');
    addPod(stack, ns, json, { containers: ['app'] });
    write(stack, ns, json, 'app', '{"level":"error","msg":"json line","code":"E42"}');
    stack.sim.store.restartContainer(ns, json, 'app', { exitCode: 1 });
    await keptRuns(stack, ns, json, 1);
    const ndjson = async (query: string) => {
      const res = await fetch(stack.url + keptPath(stack, ns, json, `/app/0${query}`), {
        headers: { ...stack.session.headers, accept: 'application/x-ndjson' },
      });
      return JSON.parse((await res.text()).trim()) as LogRecord;
    };
    expect(await ndjson('')).toMatchObject({ type: 'line', level: 'ERROR', fields: { code: 'E42' } });
    expect(await ndjson('?fields=false')).not.toHaveProperty('fields');
    expect(await ndjson('?fields=true')).toMatchObject({ fields: { code: 'E42' } });
    // RE2 has no backreferences: a pattern only a backtracking engine runs is refused, never run.
    const slow = await stack.get<{ code: string }>(
      keptPath(stack, ns, pod, `/app/0?search=${encodeURIComponent('(a)\\1')}`),
    );
    expect(slow.status).toBe(400);
    expect(slow.contentType).toMatch(/^application\/problem\+json/);
  });

  it('answer the same over the invoker IPC uses', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('ipc');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'oom soon');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 137, reason: 'OOMKilled' });
    const overHttp = await keptRuns(stack, ns, pod, 1);
    const principal = await principalOf(stack);
    const ctx = { principal, client: { via: 'ipc' as const }, signal: new AbortController().signal };
    const params = { workspaceId: 'default', clusterId: CLUSTER_ID, namespace: ns, resourceName: pod };
    const list = await stack.service.invoke('listKeptLogs', { params, query: {}, body: undefined }, ctx);
    expect(list.data).toEqual(overHttp);
    expect(overHttp[0]).toMatchObject({ reason: 'OOMKilled', exitCode: 137 });
    const one = await stack.service.invoke(
      'getKeptLog',
      { params: { ...params, container: 'app', restartCount: '0' }, query: {}, body: undefined },
      { ...ctx, mediaType: 'application/x-ndjson' },
    );
    const body = one.data as { contentType: string; chunks: AsyncIterable<string> };
    expect(body.contentType).toMatch(/^application\/x-ndjson/);
    expect(JSON.parse((await drain(body.chunks)).trim())).toMatchObject({ type: 'line', raw: 'oom soon' });
  });

  it('keep a finished Job pod’s failed run from its current log, and leave a run that completed', async () => {
    const ns = addNamespace(stack, 'kept');
    const failed = uniqueName('job-failed');
    const done = uniqueName('job-done');
    for (const p of [failed, done]) addPod(stack, ns, p, { containers: ['task'], restartPolicy: 'Never' });
    write(stack, ns, failed, 'task', 'migrating', 'error: relation "orders" does not exist');
    write(stack, ns, done, 'task', 'all good');
    finishPod(stack.sim.store, ns, done, { exitCode: 0 });
    finishPod(stack.sim.store, ns, failed, { exitCode: 1 });

    const [run] = await keptRuns(stack, ns, failed, 1);
    expect(run).toMatchObject({ container: 'task', restartCount: 0, exitCode: 1, reason: 'Error', lines: 2 });
    expect((await stack.get<string>(keptPath(stack, ns, failed, '/task/0'))).body).toBe(
      'migrating\nerror: relation "orders" does not exist\n',
    );
    // The failed one was kept after the completed one finished: the completed one was left.
    expect(await kept(stack, ns, done)).toEqual([]);
  });

  it('leave a restart that exited 0 (Completed) in the default mode', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('clean');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'bye');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 0 });
    // A failure after it is kept, so the clean one had its turn first.
    write(stack, ns, pod, 'app', 'boom');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    const runs = await keptRuns(stack, ns, pod, 1);
    expect(runs[0]).toMatchObject({ restartCount: 1, exitCode: 1 });
  });

  it('refuse a run that was not kept (404) and a malformed one (400), as problems', async () => {
    const ns = addNamespace(stack, 'kept');
    const missing = await stack.get<{ code: string }>(keptPath(stack, ns, 'nobody', '/app/0'));
    expect(missing.status).toBe(404);
    expect(missing.contentType).toMatch(/^application\/problem\+json/);
    expect(missing.body.code).toBe('resource_not_found');
    expect((missing.body as { detail?: string }).detail).toBe(
      `no kept log of container app run 0 of pod nobody in namespace ${ns}`,
    );
    for (const bad of ['/app/-1', '/app/x', '/App/0', '/app/0?podUid=%24%24', '/app/0?level=LOUD']) {
      const res = await stack.get<{ status: number }>(keptPath(stack, ns, 'p', bad));
      expect(res.status, bad).toBe(400);
      expect(res.contentType, bad).toMatch(/^application\/problem\+json/);
    }
    expect(await kept(stack, ns, 'never-existed')).toEqual([]);
    const badName = await stack.get(keptPath(stack, ns, 'No_Such'));
    expect(badName.status).toBe(400);
  });

  it('leave the live log endpoint where it was', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('live');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'live line');
    const res = await stack.get<string>(logPath(stack, ns, pod));
    expect(res.status).toBe(200);
    expect(res.body).toBe('live line\n');
  });
});

describe('kept logs, --kept-logs all', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { keptLogs: { mode: 'all', lines: 3 } } });
    await view(stack);
  });
  afterAll(async () => stack?.close());

  it('keep every run, and only its last --kept-log-lines lines', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('all');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'one', 'two', 'three', 'four', 'five');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 0 });
    const [run] = await keptRuns(stack, ns, pod, 1);
    expect(run).toMatchObject({ restartCount: 0, exitCode: 0, reason: 'Completed', lines: 3 });
    expect((await stack.get<string>(keptPath(stack, ns, pod, '/app/0'))).body).toBe('three\nfour\nfive\n');
  });

  it('keep the followed tail of a pod deleted while its container ran', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('deleted');
    addPod(stack, ns, pod, { containers: ['app'] });
    const s = await openStream(stack, logPath(stack, ns, pod, 'follow=true&tailLines=0'));
    write(stack, ns, pod, 'app', 'serving', 'last words');
    await s.waitFor((x) => linesOf(x).length >= 2);
    stack.sim.store.remove('pods', ns, pod);
    try {
      const [run] = await keptRuns(stack, ns, pod, 1);
      expect(run).toMatchObject({
        container: 'app',
        restartCount: 0,
        exitCode: null,
        reason: 'Deleted',
        lines: 2,
      });
      expect((await stack.get<string>(keptPath(stack, ns, pod, '/app/0'))).body).toBe(
        'serving\nlast words\n',
      );
    } finally {
      s.close();
    }
  });
});

describe('kept logs, --kept-logs off', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { keptLogs: { mode: 'off' } } });
    await view(stack);
  });
  afterAll(async () => stack?.close());

  it('keep nothing', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('off');
    addPod(stack, ns, pod, { containers: ['app'] });
    write(stack, ns, pod, 'app', 'gone for good');
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    // Once the service's pod cache shows the restart, a kept run would have been queued.
    await eventually(async () => {
      const res = await stack.get<{
        resource: { status: { containerStatuses: { restartCount: number }[] } };
      }>(`${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}`);
      expect(res.body.resource.status.containerStatuses[0]!.restartCount).toBe(1);
    }, WAIT);
    await keptLogsOf(stack).idle();
    expect(await kept(stack, ns, pod)).toEqual([]);
  });
});

describe('kept logs follow --record-changes', () => {
  it('all: the pods of every cluster are watched from the start, with nobody viewing', async () => {
    const stack = await startStack({ service: { changeHistory: { record: 'all' } } });
    try {
      const ns = addNamespace(stack, 'kept');
      const pod = uniqueName('unviewed');
      addPod(stack, ns, pod, { containers: ['app'] });
      write(stack, ns, pod, 'app', 'nobody looked');
      stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
      // The kept-logs read below is the first request: it reads the database, not the cluster.
      await keptRuns(stack, ns, pod, 1);
    } finally {
      await stack.close();
    }
  });

  it('off: a viewed cluster keeps no logs', async () => {
    const stack = await startStack({ service: { changeHistory: { record: 'off' } } });
    try {
      await view(stack);
      const ns = addNamespace(stack, 'kept');
      const pod = uniqueName('unrecorded');
      addPod(stack, ns, pod, { containers: ['app'] });
      write(stack, ns, pod, 'app', 'not recorded');
      stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
      await eventually(async () => {
        const res = await stack.get<{
          resource: { status: { containerStatuses: { restartCount: number }[] } };
        }>(`${stack.cluster}/kubernetes-proxy/namespaces/${ns}/pod/${pod}`);
        expect(res.body.resource.status.containerStatuses[0]!.restartCount).toBe(1);
      }, WAIT);
      await keptLogsOf(stack).idle();
      expect(await kept(stack, ns, pod)).toEqual([]);
    } finally {
      await stack.close();
    }
  });
});

describe('kept logs, bounded', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack({ service: { keptLogs: { lines: 10, maxBytes: 1024 * 1024 } } });
    await view(stack);
  });
  afterAll(async () => stack?.close());

  it('cut a runaway line, and drop the oldest run once the cluster holds more than --kept-logs-max-bytes', async () => {
    const ns = addNamespace(stack, 'kept');
    const pod = uniqueName('big');
    addPod(stack, ns, pod, { containers: ['app'] });
    const long = (c: string) => c.repeat(70_000);
    write(stack, ns, pod, 'app', ...Array.from({ length: 10 }, () => long('a')));
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    const [first] = await keptRuns(stack, ns, pod, 1);
    expect(first).toMatchObject({ restartCount: 0, lines: 10 });
    // Cut as the kubelet sent it, timestamp included: 65,536 characters in all.
    const text = (await stack.get<string>(keptPath(stack, ns, pod, '/app/0?tailLines=1&timestamps=true')))
      .body;
    expect(text).toMatch(/^\d{4}-[^ ]+Z a+\n$/);
    expect(text).toHaveLength(65_536 + 1);
    // 10 lines of 64 KiB each: a second such run passes 1 MiB, and the first goes.
    write(stack, ns, pod, 'app', ...Array.from({ length: 10 }, () => long('b')));
    stack.sim.store.restartContainer(ns, pod, 'app', { exitCode: 1 });
    await eventually(async () => {
      expect((await kept(stack, ns, pod)).map((r) => r.restartCount)).toEqual([1]);
    }, WAIT);
  });
});
