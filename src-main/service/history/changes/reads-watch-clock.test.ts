/**
 * The changes watch's timing on a real SQLite database (reads-watch.ts), on Vitest's clock: only
 * setInterval, clearInterval and Date are faked, so the database, the signals and the promises run
 * for real while the heartbeat, the poll and the credential checks happen exactly when a test moves
 * the clock. "Nothing yet" is checked after the event loop has gone round (settle), never by a wait.
 * Also: a read happens only when something asks for it, chunks are never empty, and a watch leaves
 * no timer or abort listener behind however it ends.
 */
import { getEventListeners } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChangeWatchRecord } from '../../../../src-shared/contract/change-operations';
import type { CallContext } from '../../context';
import { openBackend } from '../../events/history/history.test-support';
import { framingFor } from '../../events/watch/framing';
import { resolveWatchOptions } from '../../events/watch/options';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { type FixtureRow, insertRows, MIN, T0 } from './reads.test-support';
import { ChangeWatches, type ChangeWatchInputs, changeStream } from './reads-watch';

let opened: Awaited<ReturnType<typeof openBackend>>;
let backend: StorageBackend;
beforeEach(async () => {
  opened = await openBackend('sqlite');
  backend = opened.backend;
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
});
afterEach(async () => {
  vi.useRealTimers();
  await opened.close();
});

const NDJSON = framingFor('application/x-ndjson', 3_000);
/** No heartbeat, poll or credential check unless a test moves the clock that far. */
const QUIET = resolveWatchOptions({ heartbeatMs: 3_600_000, credentialCheckMs: 3_600_000 });

const row = (i: number, over: Partial<FixtureRow> = {}): FixtureRow => ({
  timeMs: T0 + i * MIN,
  change: 'updated',
  resourceVersion: String(i),
  ...over,
});

/** Lets the event loop go round: whatever the database and the signals would do has happened. */
async function settle() {
  for (let i = 0; i < 30; i++) await new Promise<void>((r) => setImmediate(r));
}

/** A pull of the next chunk, whose outcome can be looked at without waiting for it. */
interface Pull {
  settled: boolean;
  result: Promise<IteratorResult<string, void>>;
}

/** A stream read chunk by chunk, on a real database; the source's db may be wrapped (still real). */
function open(over: Partial<ChangeWatchInputs> = {}, db: RecordedSource['db'] = backend) {
  const abort = new AbortController();
  let ended = 0;
  let wake: (() => void) | undefined;
  const inputs: ChangeWatchInputs = {
    source: { db, clusterId: 'c1', frozen: false },
    filter: {},
    refilter: undefined,
    framing: NDJSON,
    lastEventId: undefined,
    sendInitial: true,
    options: QUIET,
    subscribe: async (w) => {
      wake = w;
      return async () => {};
    },
    recheck: undefined,
    signal: abort.signal,
    onEnd: () => {
      ended++;
    },
    ...over,
  };
  const stream = changeStream(inputs);
  const chunks: string[] = [];
  const pull = (): Pull => {
    const p: Pull = { settled: false, result: stream.next() };
    p.result = p.result.then((r) => {
      p.settled = true;
      if (!r.done) chunks.push(r.value);
      return r;
    });
    return p;
  };
  /** The records of the next chunk, which must come without the clock moving. */
  const next = async (): Promise<ChangeWatchRecord[]> => {
    const p = pull();
    await settle();
    expect(p.settled, 'a chunk was due without the clock moving').toBe(true);
    const r = await p.result;
    if (r.done) throw new Error('the stream ended');
    return r.value
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as ChangeWatchRecord);
  };
  /** Chunks up to and including the one holding SYNCED. */
  const synced = async () => {
    for (;;) if ((await next()).some((r) => r.type === 'SYNCED')) return;
  };
  return {
    abort,
    chunks,
    pull,
    next,
    synced,
    stream,
    wake: () => wake?.(),
    ended: () => ended,
  };
}

/** The records a chunk holds once the clock or a signal has let it come. */
async function recordsOf(p: Pull): Promise<ChangeWatchRecord[]> {
  await settle();
  expect(p.settled, 'no chunk came').toBe(true);
  const r = await p.result;
  if (r.done) throw new Error('the stream ended');
  return r.value
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => JSON.parse(l) as ChangeWatchRecord);
}

const versionsOf = (records: ChangeWatchRecord[]) =>
  records.flatMap((r) => (r.type === 'ADDED' ? [r.change.resourceVersion] : []));

describe('the changes watch on the clock', () => {
  it('beats exactly heartbeatMs after its last output, and polls every quarter of it', async () => {
    const w = open({ subscribe: undefined, options: resolveWatchOptions({ heartbeatMs: 400 }) });
    await w.synced();
    let p = w.pull();
    await vi.advanceTimersByTimeAsync(300);
    await settle();
    expect(p.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(100);
    expect(await recordsOf(p)).toEqual([{ type: 'HEARTBEAT' }]);

    // No signal: the poll at the next quarter (t=500) finds the row, not sooner.
    await insertRows(backend, [row(1)]);
    p = w.pull();
    await vi.advanceTimersByTimeAsync(99);
    await settle();
    expect(p.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(versionsOf(await recordsOf(p))).toEqual(['1']);

    // The row was output at t=500: the next heartbeat is due at t=900, not before.
    p = w.pull();
    await vi.advanceTimersByTimeAsync(399);
    await settle();
    expect(p.settled).toBe(false);
    await vi.advanceTimersByTimeAsync(1);
    expect(await recordsOf(p)).toEqual([{ type: 'HEARTBEAT' }]);
    w.abort.abort();
  });

  it('reads only when a signal asks: rows committed without one wait for it', async () => {
    const w = open();
    await w.synced();
    await insertRows(backend, [row(1)]);
    let p = w.pull();
    await settle();
    expect(p.settled).toBe(false);
    w.wake();
    expect(versionsOf(await recordsOf(p))).toEqual(['1']);

    // After a read that found fewer than a batch, it waits again.
    await insertRows(backend, [row(2)]);
    p = w.pull();
    await settle();
    expect(p.settled).toBe(false);
    w.wake();
    expect(versionsOf(await recordsOf(p))).toEqual(['2']);
    w.abort.abort();
  });

  it('reads on past a full batch without another signal', async () => {
    const w = open();
    await w.synced();
    await insertRows(
      backend,
      Array.from({ length: 600 }, (_, i) => row(i)),
    );
    w.wake();
    const first = await w.next();
    expect(first).toHaveLength(500);
    const second = await w.next();
    expect(versionsOf(second)).toEqual(Array.from({ length: 100 }, (_, i) => String(500 + i)));
    w.abort.abort();
  });

  it('reads again when a signal came while a read was finding nothing', async () => {
    let during: (() => Promise<void>) | undefined;
    const db: RecordedSource['db'] = {
      get: (sql, params) => backend.get(sql, params),
      run: (sql, params) => backend.run(sql, params),
      all: async (sql, params) => {
        const rows = await backend.all(sql, params);
        const hook = during;
        during = undefined;
        await hook?.();
        return rows as never;
      },
    };
    const w = open({}, db);
    await w.synced();
    // The read the first signal starts finds nothing; a row and a signal come before it answers.
    during = async () => {
      await insertRows(backend, [row(1)]);
      w.wake();
    };
    const p = w.pull();
    w.wake();
    expect(versionsOf(await recordsOf(p))).toEqual(['1']);
    w.abort.abort();
  });

  it('checks its credential one check at a time, and no more once it failed', async () => {
    let calls = 0;
    let release: (() => void) | undefined;
    const options = resolveWatchOptions({ heartbeatMs: 3_600_000, credentialCheckMs: 20 });
    const w = open({
      options,
      recheck: async () => {
        calls++;
        await new Promise<void>((r) => {
          release = r;
        });
      },
    });
    await w.synced();
    await vi.advanceTimersByTimeAsync(100);
    expect(calls).toBe(1);
    release?.();
    await settle();
    await vi.advanceTimersByTimeAsync(20);
    expect(calls).toBe(2);
    w.abort.abort();

    let failed = 0;
    const f = open({
      options,
      recheck: async () => {
        failed++;
        throw new Error('revoked');
      },
    });
    await f.synced();
    await vi.advanceTimersByTimeAsync(100);
    await settle();
    expect(failed).toBe(1);
    const error = await f.next();
    expect(error).toEqual([
      {
        type: 'ERROR',
        problem: expect.objectContaining({
          code: 'invalid_token',
          detail: 'the credential of this watch no longer holds',
        }),
      },
    ]);
  });

  it('keeps its filter when only the credential is checked', async () => {
    let calls = 0;
    const w = open({
      filter: { namespace: 'shop' },
      options: resolveWatchOptions({ heartbeatMs: 3_600_000, credentialCheckMs: 20 }),
      recheck: async () => {
        calls++;
      },
    });
    await w.synced();
    await vi.advanceTimersByTimeAsync(100);
    await settle();
    expect(calls).toBe(5);
    await insertRows(backend, [row(1, { namespace: 'other' }), row(2)]);
    const p = w.pull();
    w.wake();
    expect(await recordsOf(p)).toEqual([expect.objectContaining({ type: 'ADDED', id: expect.any(String) })]);
    expect(w.chunks.at(-1)).toContain('"resourceVersion":"2"');
    w.abort.abort();
  });

  it('ends when its client goes away while it waits, leaving no timer or listener behind', async () => {
    const w = open({ recheck: async () => {} });
    await w.synced();
    const p = w.pull();
    await settle();
    expect(p.settled).toBe(false);
    expect(vi.getTimerCount()).toBe(2);
    expect(getEventListeners(w.abort.signal, 'abort')).toHaveLength(1);
    w.abort.abort();
    await settle();
    expect(p.settled).toBe(true);
    expect((await p.result).done).toBe(true);
    expect(w.ended()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(w.abort.signal, 'abort')).toHaveLength(0);

    // Ended by its reader instead: the same.
    const r = open();
    await r.synced();
    await r.stream.return(undefined);
    expect(r.ended()).toBe(1);
    expect(vi.getTimerCount()).toBe(0);
    expect(getEventListeners(r.abort.signal, 'abort')).toHaveLength(0);
  });

  it('never sends an empty chunk: an empty replay, a resume past rows the filter leaves out', async () => {
    const empty = open();
    await empty.synced();
    expect(empty.chunks).toEqual(['', '{"type":"SYNCED","id":"0"}\n']);
    await empty.stream.return(undefined);

    const ids = await insertRows(backend, [
      row(1),
      row(2, { namespace: 'other' }),
      row(3, { namespace: 'other' }),
    ]);
    const resumed = open({ lastEventId: String(ids[0]), filter: { namespace: 'shop' } });
    await resumed.synced();
    expect(resumed.chunks).toEqual(['', `{"type":"SYNCED","id":"${ids[2]}"}\n`]);
    await resumed.stream.return(undefined);
  });
});

describe('ChangeWatches on the clock', () => {
  const ctx = (signal: AbortSignal): CallContext => ({
    principal: { accountId: 'a1', sessionId: 's1', workspaces: 'all' },
    client: { via: 'http' },
    signal,
    mediaType: 'application/x-ndjson',
  });
  const target = async () => ({
    source: { db: backend, clusterId: 'c1', frozen: false },
    filter: {},
    refilter: undefined,
  });

  /** Chunks read until one holds `match`, each due without the clock moving. */
  async function take(it: AsyncIterator<string>, match: string): Promise<string> {
    let text = '';
    while (!text.includes(match)) {
      const r = it.next();
      let done = false;
      void r.then(() => {
        done = true;
      });
      await settle();
      expect(done, `no chunk came while waiting for ${match}; got ${text}`).toBe(true);
      text += (await r).value ?? '';
    }
    return text;
  }

  it('is woken by its own cluster’s signal only', async () => {
    // Already there, and not replayed: sendInitialEvents=false.
    await insertRows(backend, [row(0)]);
    const watches = new ChangeWatches(backend, QUIET);
    const abort = new AbortController();
    const body = await watches.watch(target, { sendInitialEvents: false }, ctx(abort.signal));
    const chunks = body.chunks[Symbol.asyncIterator]();
    expect(await take(chunks, 'SYNCED')).not.toContain('ADDED');
    // The signal's first wake (on listening) has been read: the watch now waits.
    const p = chunks.next();
    let done = false;
    void p.then(() => {
      done = true;
    });
    await settle();
    expect(done).toBe(false);
    await insertRows(backend, [row(1)]);
    await backend.notify('skiff_changes', 'c2');
    await settle();
    expect(done).toBe(false);
    await backend.notify('skiff_changes', 'c1');
    await settle();
    expect(done).toBe(true);
    expect((await p).value).toContain('"resourceVersion":"1"');
    abort.abort();
    await chunks.return?.();
  });

  it('works without a signal source, replaying by default', async () => {
    await insertRows(backend, [row(1)]);
    const watches = new ChangeWatches(undefined, QUIET);
    const body = await watches.watch(target, {}, ctx(new AbortController().signal));
    const chunks = body.chunks[Symbol.asyncIterator]();
    expect(await take(chunks, 'SYNCED')).toContain('"resourceVersion":"1"');
    await chunks.return?.();
  });

  it('drops its abort listener once the client went away, before the stream was read', async () => {
    const watches = new ChangeWatches(backend, QUIET);
    const abort = new AbortController();
    await watches.watch(target, {}, ctx(abort.signal));
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(1);
    abort.abort();
    expect(watches.open).toBe(0);
    expect(getEventListeners(abort.signal, 'abort')).toHaveLength(0);
  });
});
