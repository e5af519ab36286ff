/**
 * How a followed container's log decides what to do after a connection ends, driven directly
 * against a stand-in apiserver (each log request it is sent, in order) and a scripted pod read:
 * connections that end at once, reads that fail for a moment or for good, a container waiting in
 * back-off, and a reader that leaves. The simulator never ends a follow on its own like this.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { silentLogger } from '../logger';
import { type LocalApiserver, localApiserver } from '../test-support/local-apiserver.test-support';
import { ContainerLog, type ContainerLogOptions } from './container-log';
import type { LogEvent } from './events';
import type { PodLike } from './pod';

interface LogRequest {
  follow: boolean;
  previous: boolean;
  sinceTime: string | null;
  /** The one-byte check that comes before every follow. */
  probe: boolean;
  closed: boolean;
}

/** Answers one log request that is not a probe; `n` counts those from 0. */
type LogAnswer = (res: ServerResponse, n: number, req: LogRequest) => void;
/** Answers a probe; `n` counts probes from 0. */
type ProbeAnswer = (res: ServerResponse, n: number) => void;

const t0 = Date.parse('2026-11-24T10:00:00Z');
const line = (seconds: number, text: string) => `${new Date(t0 + seconds * 1000).toISOString()} ${text}\n`;
const ok: ProbeAnswer = (res) => {
  res.writeHead(200, { 'content-type': 'text/plain' });
  res.end();
};
const refuse = (res: ServerResponse, code: number, message: string) => {
  res.writeHead(code, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ kind: 'Status', status: 'Failure', code, message }));
};
const writeAndEnd =
  (...lines: string[]): LogAnswer =>
  (res) => {
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end(lines.join(''));
  };

const running = (id: string, restartCount = 0): PodLike => ({
  metadata: { name: 'p', namespace: 'ns' },
  status: {
    containerStatuses: [
      {
        name: 'app',
        containerID: id,
        restartCount,
        state: { running: { startedAt: new Date(t0 + restartCount * 60_000).toISOString() } },
      },
    ],
  },
});
const backingOff = (lastId: string, restartCount: number): PodLike => ({
  metadata: { name: 'p', namespace: 'ns' },
  status: {
    containerStatuses: [
      {
        name: 'app',
        containerID: lastId,
        restartCount,
        state: { waiting: { reason: 'CrashLoopBackOff' } },
        lastState: {
          terminated: {
            containerID: lastId,
            exitCode: 1,
            reason: 'Error',
            finishedAt: '2026-11-24T10:00:30Z',
          },
        },
      },
    ],
  },
});

interface Scene {
  requests: LogRequest[];
  reads: number;
  /** Log requests that are not probes. */
  logs(): LogRequest[];
  log: ContainerLog;
  abort: AbortController;
}

let open: { server: LocalApiserver; abort: AbortController } | undefined;
afterEach(async () => {
  open?.abort.abort();
  await open?.server.close();
  open = undefined;
});

/**
 * The stream opens on the pod running instance c1; `pods` is what each later read of the pod
 * returns in turn (the last one again after that), an Error being thrown.
 */
async function scene(opts: {
  logs: LogAnswer[];
  probes?: ProbeAnswer[];
  pods: Array<PodLike | Error>;
  options?: Partial<ContainerLogOptions>;
}): Promise<Scene> {
  const requests: LogRequest[] = [];
  let probes = 0;
  let logs = 0;
  const server = await localApiserver((req: IncomingMessage, res) => {
    const q = new URL(req.url ?? '/', 'http://fake').searchParams;
    const seen: LogRequest = {
      follow: q.get('follow') === 'true',
      previous: q.get('previous') === 'true',
      sinceTime: q.get('sinceTime'),
      probe: q.get('limitBytes') === '1',
      closed: false,
    };
    requests.push(seen);
    res.on('close', () => {
      seen.closed = true;
    });
    if (seen.probe) {
      const answers = opts.probes ?? [ok];
      answers[Math.min(probes++, answers.length - 1)]!(res, probes - 1);
      return;
    }
    opts.logs[Math.min(logs, opts.logs.length - 1)]!(res, logs++, seen);
  });
  const abort = new AbortController();
  open = { server, abort };
  const s: Scene = {
    requests,
    reads: 0,
    logs: () => requests.filter((r) => !r.probe),
    abort,
    log: new ContainerLog(
      {
        client: server.client,
        timeoutMs: 5_000,
        pollMs: 20,
        logger: silentLogger(),
        getPod: async () => {
          const next = opts.pods[Math.min(s.reads++, opts.pods.length - 1)]!;
          if (next instanceof Error) throw next;
          return next;
        },
      },
      { namespace: 'ns', pod: 'p', container: 'app' },
      { follow: true, previous: false, ...opts.options },
      abort.signal,
    ),
  };
  await s.log.open(running('c1'));
  return s;
}

/** Reads batches until `enough` says so or the time runs out; what a reader of the stream sees. */
async function read(s: Scene, enough: (events: LogEvent[]) => boolean, ms = 5_000) {
  const events: LogEvent[] = [];
  const timer = setTimeout(() => s.abort.abort(), ms);
  try {
    for await (const batch of s.log.batches()) {
      events.push(...batch);
      if (enough(events)) break;
    }
  } finally {
    clearTimeout(timer);
  }
  return events;
}
const texts = (events: LogEvent[]) => events.map((e) => (e.marker ? `[${e.marker.event}]` : e.entry.message));

describe('what is asked of the cluster', () => {
  it('a since time asks the kubelet from the start of that second', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(5, 'in range'))],
      pods: [running('c1')],
      options: { follow: false, since: t0 + 5_750 },
    });
    await read(s, () => false);
    expect(s.logs().map((r) => r.sinceTime)).toEqual(['2026-11-24T10:00:05Z']);
  });

  it('without a since time, no sinceTime is sent', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(5, 'x'))],
      pods: [running('c1')],
      options: { follow: false },
    });
    await read(s, () => false);
    expect(s.logs().map((r) => r.sinceTime)).toEqual([null]);
  });
});

describe('after a connection ends', () => {
  it('one that keeps ending at once with nothing is asked again with a growing wait, not in a tight loop', async () => {
    const s = await scene({ logs: [writeAndEnd()], pods: [running('c1')] });
    // Waits of 250, 500 and 1,000 ms: three or four requests in 1.3 s.
    await read(s, () => false, 1_300);
    expect(s.logs().length).toBeGreaterThanOrEqual(2);
    expect(s.logs().length).toBeLessThanOrEqual(4);
  });

  it('one that delivered lines is resumed at once, from the second of its last line', async () => {
    const s = await scene({
      logs: [(res, n) => writeAndEnd(line(n, `line ${n}`))(res, n, s.requests[0]!)],
      pods: [running('c1')],
    });
    const events = await read(s, (e) => e.length >= 8, 3_000);
    expect(texts(events)).toEqual(Array.from({ length: 8 }, (_, n) => `line ${n}`));
    expect(s.logs()[3]!.sinceTime).toBe('2026-11-24T10:00:02Z');
    expect(s.logs().every((r) => r.follow && !r.previous)).toBe(true);
  });

  it('a pod read that fails for a moment (a network error, a 500) is tried again', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(1, 'before')), writeAndEnd(line(2, 'after'))],
      pods: [
        new TypeError('fetch failed'),
        new ProblemError('internal_error', 'the service failed'),
        running('c1'),
      ],
    });
    const events = await read(s, (e) => e.length >= 2);
    expect(texts(events)).toEqual(['before', 'after']);
    expect(s.reads).toBe(3);
  });

  it('a resume the kubelet cannot serve for a moment (400) is tried again', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(1, 'before')), writeAndEnd(line(2, 'after'))],
      probes: [ok, (res) => refuse(res, 400, 'container "app" is restarting'), ok],
      pods: [running('c1')],
    });
    const events = await read(s, (e) => e.length >= 2);
    expect(texts(events)).toEqual(['before', 'after']);
  });

  it('a resume refused for good (the pod is gone: 404) ends the stream with that error at once', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(1, 'before'))],
      probes: [ok, (res) => refuse(res, 404, 'pods "p" not found')],
      pods: [running('c1')],
    });
    const failure = await read(s, () => false).then(
      () => undefined,
      (err: unknown) => err as ProblemError,
    );
    expect(failure?.code).toBe('resource_not_found');
    expect(s.requests.filter((r) => r.probe)).toHaveLength(2);
  });
});

describe('a container in back-off', () => {
  it('is marked terminated once however many reads it waits, then its next instance is followed', async () => {
    const s = await scene({
      logs: [writeAndEnd(line(1, 'first instance')), writeAndEnd(), writeAndEnd(line(70, 'second instance'))],
      pods: [backingOff('c1', 1), backingOff('c1', 1), backingOff('c1', 1), running('c2', 1)],
    });
    const events = await read(s, (e) => texts(e).includes('second instance'));
    expect(texts(events)).toEqual(['first instance', '[terminated]', '[restarted]', 'second instance']);
    expect(events[1]!.marker).toMatchObject({ exitCode: 1, reason: 'Error' });
    expect(events[2]!.marker).toMatchObject({
      restartCount: 1,
      message: 'container app restarted (restart 1)',
    });
    // The ended instance's tail is read as "previous"; the new one is followed from its start.
    const [, tail, next] = s.logs();
    expect(tail).toMatchObject({ follow: false, previous: true });
    expect(next).toMatchObject({ follow: true, previous: false, sinceTime: null });
  });
});

describe('a reader that leaves', () => {
  it('closes the request it was reading', async () => {
    const s = await scene({
      logs: [
        (res) => {
          res.writeHead(200, { 'content-type': 'text/plain' });
          res.write(line(1, 'one'));
        },
      ],
      pods: [running('c1')],
    });
    await read(s, (e) => e.length === 1);
    const follow = s.logs()[0]!;
    const deadline = Date.now() + 5_000;
    while (!follow.closed && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(follow.closed).toBe(true);
  });
});
