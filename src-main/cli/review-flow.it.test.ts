/**
 * Issue 10's offline review, tried as a new user would, against the built `serve` process over
 * real HTTP: a demo cluster whose apiserver expires events fast, the history surviving a restart,
 * a snapshot taken with progress, then everything stopped and the snapshot reviewed with no
 * cluster anywhere, and last the sessions and activity log of the first run. Each `it` is one step
 * of the one story and builds on the steps before it, so they run in order and share state. It
 * runs past 300 lines because the story is one piece.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { DEMO_PODS } from '@skiff/kube-simulator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serviceArgs } from '../../scripts/serve.mjs';
import type { ActivityEntry, SessionRecord } from '../../src-shared/contract/auth-models';
import type { EventTimeline } from '../../src-shared/contract/event-history-models';
import type { Cluster, EventRecord, ResourceWrapper } from '../../src-shared/contract/models';
import type { SnapshotJob } from '../../src-shared/contract/snapshot-models';
import { SNAPSHOT_MEDIA_TYPE } from '../../src-shared/contract/snapshot-operations';
import { explainPod, type PodLike } from '../../src-shared/guidance/explain-pod';
import type { GuidanceEntry } from '../../src-shared/guidance/types';
import { checkedBody } from '../service/test-support/contract-check.test-support';
import { parseLinks } from '../service/test-support/harness.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../service/test-support/login.test-support';

interface Running {
  url: string;
  child: ChildProcess;
  exited: Promise<number | null>;
  stderr: () => string;
}

interface Answer<T> {
  status: number;
  headers: Headers;
  body: T;
}

/** Every `serve` still running, so afterAll stops them even when a step failed. */
const running = new Set<Running>();
let root: string;
/** No kubeconfig anywhere: $KUBECONFIG names a missing file and HOME has no ~/.kube. */
let env: NodeJS.ProcessEnv;

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'skiff-review-'));
  env = {
    ...process.env,
    SKIFF_LOG_LEVEL: 'warn',
    SKIFF_ADMIN_PASSWORD: TEST_ADMIN_PASSWORD,
    KUBECONFIG: join(root, 'no-such-kubeconfig.yaml'),
    HOME: join(root, 'home'),
  };
});
afterAll(async () => {
  for (const run of running) await stop(run, 'SIGKILL');
  await rm(root, { recursive: true, force: true });
});

/** `npm run serve -- …` as a process; resolves on its one ready line. */
async function serve(args: string[]): Promise<Running> {
  const child = spawn(process.execPath, serviceArgs(['--port', '0', ...args]), {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let err = '';
  child.stderr?.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).once('line', (line) => {
      const m = /^listening on (http:\/\/127\.0\.0\.1:\d+)$/.exec(line);
      if (m) resolve(m[1]!);
      else reject(new Error(`serve ${args.join(' ')}: unexpected first line ${line}`));
    });
    void exited.then((code) => reject(new Error(`serve ${args.join(' ')} exited with ${code}: ${err}`)));
  });
  const run: Running = { url, child, exited, stderr: () => err };
  running.add(run);
  return run;
}

async function stop(run: Running, signal: NodeJS.Signals = 'SIGTERM'): Promise<number | null> {
  if (run.child.exitCode === null && run.child.signalCode === null) run.child.kill(signal);
  const code = await run.exited;
  running.delete(run);
  return code;
}

async function get<T>(run: Running, session: LoggedIn, path: string): Promise<Answer<T>> {
  const res = await fetch(run.url + path, { headers: session.headers });
  const body = checkedBody<T>('GET', path, res, await res.text());
  return { status: res.status, headers: res.headers, body };
}

async function ok<T>(run: Running, session: LoggedIn, path: string): Promise<Answer<T>> {
  const res = await get<T>(run, session, path);
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${JSON.stringify(res.body)}`);
  return res;
}

/** Polls until `check` returns something, or fails saying what never happened. */
async function until<T>(
  what: string,
  timeoutMs: number,
  check: () => Promise<T | undefined>,
  everyMs = 200,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await check();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`gave up after ${timeoutMs / 1000} s waiting until ${what}`);
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** Every page of an event list: the rows, the eventIds X-Expired-Rows marks, and X-Total. */
async function walkEvents(run: Running, session: LoggedIn, first: string) {
  const rows: EventRecord[] = [];
  const expired = new Set<string>();
  let total = -1;
  let next: string | undefined = first;
  while (next) {
    const res: Answer<EventRecord[]> = await ok<EventRecord[]>(run, session, next);
    for (const part of (res.headers.get('x-expired-rows') ?? '').split(',').filter(Boolean)) {
      const [a, b] = part.split('-').map(Number) as [number, number | undefined];
      for (let i = a; i <= (b ?? a); i++) expired.add(res.body[i]!.eventId);
    }
    rows.push(...res.body);
    total = Number(res.headers.get('x-total'));
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  expect(total).toBe(rows.length);
  return { rows, ids: new Set(rows.map((r) => r.eventId)), expired };
}

const DEMO = '/v1/workspaces/default/observability/demo';
const crash = DEMO_PODS.crashLoop;
const crashPod = (base: string) => `${base}/kubernetes-proxy/namespaces/${crash.namespace}/pod/${crash.name}`;
const crashStatus = (pod: ResourceWrapper) =>
  (pod.resource.status as PodLike['status'])?.containerStatuses?.find((c) => c.name === crash.container);

// What the story carries from step to step.
const dataDir = () => join(root, 'first');
const demoArgs = () => ['--demo', '--demo-event-ttl', '5s', '--data-dir', dataDir()];
let live: Running;
const sessions: LoggedIn[] = [];
/** Events the live list showed in step 1 and the cluster then dropped, by eventId. */
const gone = new Map<string, EventRecord>();
let demoServer = '';
let job: SnapshotJob;
let file = '';
let review: Running;
let reviewSession: LoggedIn;
let snapshotBase = '';

describe('offline review of a cluster (issue 10), as a new user does it', () => {
  it('serve --demo --demo-event-ttl 5s: the events listed once are recorded, and the cluster drops them after 5 s', async () => {
    live = await serve(demoArgs());
    sessions.push(await login(live.url));
    const seen = new Map<string, EventRecord>();
    // The first read starts recording (`--record-events viewed`, the default). The demo's own
    // events are minutes old and go at once; the ones its crash loops write live 5 s past their last repeat.
    await until('some event the live list showed is gone from it', 45_000, async () => {
      const now = await walkEvents(live, sessions[0]!, `${DEMO}/kubernetes-events?limit=1000`);
      expect(now.expired.size).toBe(0);
      for (const [id, e] of seen) if (!now.ids.has(id)) gone.set(id, e);
      for (const e of now.rows) seen.set(e.eventId, e);
      return gone.size > 0 ? true : undefined;
    });
  }, 60_000);

  it('after a restart on the same data dir, lists the dropped events with includeExpired=true, marked by X-Expired-Rows, and not without it', async () => {
    expect(await stop(live)).toBe(0);
    live = await serve(demoArgs());
    sessions.push(await login(live.url));
    // One page each: history pages are read at request time (no snapshot token), so on a live
    // cluster the totals of a walk could move between its pages. The restarted demo replays the
    // same events, and its crash loop bumps some of the dropped ones again before the TTL drops
    // them anew, so a dropped event may be live or expired at any moment: the rule is that every
    // one is listed, and the ones the cluster has dropped again are marked.
    const all = await until(
      'every dropped event is listed, and dropped ones are marked expired',
      45_000,
      async () => {
        const got = await walkEvents(
          live,
          sessions[1]!,
          `${DEMO}/kubernetes-events?includeExpired=true&limit=1000`,
        );
        const listed = [...gone.keys()].every((id) => got.ids.has(id));
        return listed && [...gone.keys()].some((id) => got.expired.has(id)) ? got : undefined;
      },
    );
    for (const e of all.rows.filter((r) => gone.has(r.eventId))) {
      const before = gone.get(e.eventId)!;
      expect([e.reason, e.involvedObject, e.firstTimestamp]).toEqual([
        before.reason,
        before.involvedObject,
        before.firstTimestamp,
      ]);
    }
    const plain = await walkEvents(live, sessions[1]!, `${DEMO}/kubernetes-events?limit=1000`);
    expect(plain.expired.size).toBe(0);
    // An event marked expired a moment ago may only come back through a new occurrence.
    for (const id of all.expired) {
      if (plain.ids.has(id)) {
        const now = plain.rows.find((r) => r.eventId === id)!;
        const then = all.rows.find((r) => r.eventId === id)!;
        expect(now.lastTimestamp > then.lastTimestamp, `${id} live again only with a new occurrence`).toBe(
          true,
        );
      }
    }
  }, 60_000);

  it('takes a snapshot while the pod crash-loops: the job reports progress until done, and the file downloads', async () => {
    const session = sessions[1]!;
    const clusters = await ok<Cluster[]>(live, session, '/v1/workspaces/default/clusters');
    demoServer = clusters.body.find((c) => c.clusterId === 'demo')!.server;
    // The crash loop backs off for 10 s after each 6 s run: start right after it enters back-off,
    // so the snapshot holds the pod as CrashLoopBackOff.
    let sawRunning = false;
    await until('the crash-looping pod enters back-off after a run', 40_000, async () => {
      const state = crashStatus((await ok<ResourceWrapper>(live, session, crashPod(DEMO))).body)?.state;
      if (state?.running) sawRunning = true;
      return sawRunning && state?.waiting?.reason === 'CrashLoopBackOff' ? true : undefined;
    });
    const res = await fetch(`${live.url}/v1/workspaces/default/clusters/demo/snapshots`, {
      method: 'POST',
      headers: session.headers,
    });
    const started = checkedBody<SnapshotJob>(
      'POST',
      '/v1/workspaces/default/clusters/demo/snapshots',
      res,
      await res.text(),
    );
    expect(res.status).toBe(202);
    expect(res.headers.get('location')).toBe(`/v1/snapshots/${started.snapshotId}`);
    expect(started).toMatchObject({ status: 'running', clusterId: 'demo', context: 'demo' });

    const seen: SnapshotJob[] = [started];
    job = await until(
      'the snapshot job is no longer running',
      60_000,
      async () => {
        const polled = (await ok<SnapshotJob>(live, session, `/v1/snapshots/${started.snapshotId}`)).body;
        seen.push(polled);
        return polled.status === 'running' ? undefined : polled;
      },
      20,
    );
    expect(job.status, job.error).toBe('done');
    // Progress only moves forward, and the last report counts everything.
    for (let i = 1; i < seen.length; i++) {
      const [a, b] = [seen[i - 1]!.progress, seen[i]!.progress];
      expect(b.objects).toBeGreaterThanOrEqual(a.objects);
      expect(b.events).toBeGreaterThanOrEqual(a.events);
      expect(b.podLogsDone).toBeGreaterThanOrEqual(a.podLogsDone);
    }
    expect(job.progress.objects).toBeGreaterThan(50);
    expect(job.progress.events).toBeGreaterThanOrEqual(gone.size);
    expect(job.progress.podLogsTotal).toBeGreaterThan(10);
    expect(job.progress.podLogsDone).toBe(job.progress.podLogsTotal);
    // Only the pods on the NotReady node have no logs (its kubelet does not answer).
    for (const g of job.missing)
      expect([g.part, g.reason]).toEqual(['logs', expect.stringMatching(/no route to host/)]);

    const download = await fetch(`${live.url}/v1/snapshots/${job.snapshotId}/file`, {
      headers: session.headers,
    });
    expect(download.status).toBe(200);
    expect(download.headers.get('content-type')).toBe(SNAPSHOT_MEDIA_TYPE);
    const bytes = Buffer.from(await download.arrayBuffer());
    expect(bytes.length).toBe(job.sizeBytes);
    file = join(root, job.fileName);
    await writeFile(file, bytes);
  }, 110_000);

  it('with the demo cluster stopped, serve --snapshot FILE lists only the snapshot: status snapshot, takenAt', async () => {
    expect(await stop(live)).toBe(0);
    // The cluster the snapshot came from is gone with the service that ran it.
    await expect(fetch(demoServer)).rejects.toThrow();
    review = await serve(['--snapshot', file, '--data-dir', join(root, 'review')]);
    reviewSession = await login(review.url);
    const clusters = (await ok<Cluster[]>(review, reviewSession, '/v1/workspaces/default/clusters')).body;
    expect(clusters).toHaveLength(1);
    const [snap] = clusters as [Cluster];
    expect(snap).toMatchObject({ status: 'snapshot', context: 'demo', name: 'demo (snapshot)' });
    const takenAt = Date.parse(snap.takenAt ?? '');
    expect(takenAt).toBeGreaterThanOrEqual(Date.parse(job.startedAt));
    expect(takenAt).toBeLessThanOrEqual(Date.parse(job.finishedAt!));
    snapshotBase = `/v1/workspaces/default/observability/${snap.clusterId}`;
  }, 60_000);

  it('explains the CrashLoopBackOff pod, serves its previous logs, and draws its events on the timeline, expired ones included', async () => {
    const pod = (await ok<ResourceWrapper>(review, reviewSession, crashPod(snapshotBase))).body;
    const status = crashStatus(pod);
    expect(status?.state?.waiting?.reason).toBe('CrashLoopBackOff');
    expect(status?.restartCount).toBeGreaterThan(0);
    // What the pod view shows: the finding for the waiting container, with its explanation.
    const finding = explainPod(pod.resource as PodLike).find((f) => f.source === 'waiting');
    expect(finding?.reason).toBe('CrashLoopBackOff');
    const guidance = (await ok<GuidanceEntry>(review, reviewSession, '/v1/guidance/CrashLoopBackOff')).body;
    expect(guidance.id).toBe(finding?.guidance?.id);
    expect(guidance.checks.some((c) => c.action?.kind === 'open-logs' && c.action.previous)).toBe(true);

    const logs = await fetch(
      `${review.url}${crashPod(snapshotBase)}/logs?container=${crash.container}&previous=true`,
      { headers: reviewSession.headers },
    );
    expect(logs.status).toBe(200);
    expect(await logs.text()).toMatch(/panic/);

    const all = await walkEvents(
      review,
      reviewSession,
      `${snapshotBase}/kubernetes-events?includeExpired=true&limit=3`,
    );
    // Every dropped event is in the file; whether the cluster had it again when the snapshot was
    // taken depends on the crash loop, so the rule checked is that the expired rows are exactly
    // those the live list lacks, and that there are some.
    for (const id of gone.keys()) expect(all.ids.has(id), `${id} in the snapshot`).toBe(true);
    expect(all.expired.size).toBeGreaterThan(0);
    const plain = await walkEvents(review, reviewSession, `${snapshotBase}/kubernetes-events?limit=3`);
    // The file is frozen: what includeExpired adds is exactly what it marks.
    expect([...all.ids].filter((id) => !plain.ids.has(id)).sort()).toEqual([...all.expired].sort());
    expect(all.rows.some((e) => e.involvedObject.name === crash.name && e.reason === 'BackOff')).toBe(true);

    const sum = (t: EventTimeline) => t.buckets.reduce((n, b) => n + b.normal + b.warning, 0);
    const timeline = `${snapshotBase}/kubernetes-events/timeline?buckets=30`;
    const withExpired = (await ok<EventTimeline>(review, reviewSession, `${timeline}&includeExpired=true`))
      .body;
    expect(sum(withExpired)).toBe(all.rows.length);
    expect(sum((await ok<EventTimeline>(review, reviewSession, timeline)).body)).toBe(plain.rows.length);
    expect(plain.rows.length).toBeGreaterThan(0);
  }, 60_000);

  it('on the first data dir, offline, the sessions and the activity log show the logins of both runs', async () => {
    expect(await stop(review)).toBe(0);
    // No demo and no kubeconfig: only the snapshot, so nothing here needs a live cluster.
    const again = await serve(['--snapshot', file, '--data-dir', dataDir()]);
    const me = await login(again.url);
    const clusters = (await ok<Cluster[]>(again, me, '/v1/workspaces/default/clusters')).body;
    expect(clusters.map((c) => c.status)).toEqual(['snapshot']);

    const listed = (await ok<SessionRecord[]>(again, me, '/v1/auth/sessions?limit=100')).body;
    const byId = new Map(listed.map((s) => [s.sessionId, s]));
    for (const s of sessions) expect(byId.get(s.sessionId)?.status, s.sessionId).toBe('active');
    expect(byId.get(me.sessionId)?.current).toBe(true);
    expect(listed.filter((s) => s.current)).toHaveLength(1);

    const logins = (await ok<ActivityEntry[]>(again, me, '/v1/auth/activity?type=login&limit=100')).body;
    const loginSessions = logins.map((a) => a.sessionId);
    for (const s of [...sessions, me]) expect(loginSessions, s.sessionId).toContain(s.sessionId);
    expect(logins.every((a) => a.type === 'login' && a.username === 'admin')).toBe(true);
    // Newest first: this run's login, then step 2's, then step 1's.
    const order = [me, sessions[1]!, sessions[0]!].map((s) => loginSessions.indexOf(s.sessionId));
    expect(order).toEqual([...order].sort((a, b) => a - b));
    expect(await stop(again)).toBe(0);
  }, 60_000);
});
