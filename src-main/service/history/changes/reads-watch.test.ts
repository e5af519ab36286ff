/**
 * The changes watch's stream on a real SQLite database (reads-watch.ts): the replay and SYNCED, a
 * resume after Last-Event-ID and every RESET, new rows as the signal or the poll finds them, the
 * BOOKMARK and heartbeat, the credential's end, a filter computed again, and the slots. Records
 * are read in the NDJSON framing (one JSON per line); the SSE framing is the event watch's.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ChangeWatchRecord } from '../../../../src-shared/contract/change-operations';
import type { CallContext } from '../../context';
import { ProblemError } from '../../errors';
import { openBackend } from '../../events/history/history.test-support';
import { framingFor } from '../../events/watch/framing';
import { resolveWatchOptions } from '../../events/watch/options';
import type { StorageBackend } from '../../storage/backend';
import type { RecordedSource } from '../source';
import { type FixtureRow, insertRows, MIN, T0 } from './reads.test-support';
import type { FeedFilter } from './reads-feed';
import { ChangeWatches, type ChangeWatchInputs, changeStream, REPLAY_MAX } from './reads-watch';

let opened: Awaited<ReturnType<typeof openBackend>>;
let backend: StorageBackend;
beforeEach(async () => {
  opened = await openBackend('sqlite');
  backend = opened.backend;
});
afterEach(async () => opened.close());

const source = (): RecordedSource => ({ db: backend, clusterId: 'c1', frozen: false });
const NDJSON = framingFor('application/x-ndjson', 3_000);
const OPTIONS = resolveWatchOptions({ heartbeatMs: 60_000, credentialCheckMs: 20 });

const row = (i: number, over: Partial<FixtureRow> = {}): FixtureRow => ({
  timeMs: T0 + i * MIN,
  change: 'updated',
  resourceVersion: String(i),
  ...over,
});

/** A stream read record by record; `end` aborts it and answers how often onEnd was called. */
function read(over: Partial<ChangeWatchInputs> = {}) {
  const abort = new AbortController();
  let ended = 0;
  let wake: (() => void) | undefined;
  const stream = changeStream({
    source: source(),
    filter: {},
    refilter: undefined,
    framing: NDJSON,
    lastEventId: undefined,
    sendInitial: true,
    options: OPTIONS,
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
  });
  let buffered: ChangeWatchRecord[] = [];
  const next = async (): Promise<ChangeWatchRecord> => {
    while (buffered.length === 0) {
      const r = await stream.next();
      if (r.done) throw new Error('the stream ended');
      buffered = r.value
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as ChangeWatchRecord);
    }
    return buffered.shift()!;
  };
  /** Records up to and including the first of `type`. */
  const until = async (type: ChangeWatchRecord['type']) => {
    const got: ChangeWatchRecord[] = [];
    for (;;) {
      const r = await next();
      got.push(r);
      if (r.type === type) return got;
    }
  };
  return {
    next,
    until,
    wake: () => wake?.(),
    async end() {
      abort.abort();
      await stream.return(undefined);
      return ended;
    },
  };
}

const versions = (records: ChangeWatchRecord[]) =>
  records.flatMap((r) => (r.type === 'ADDED' ? [r.change.resourceVersion] : []));

describe('the changes watch stream', () => {
  it('replays the matching changes oldest first, then SYNCED at the newest row', async () => {
    const ids = await insertRows(backend, [
      row(3),
      row(1),
      row(2, { namespace: 'other' }),
      row(4, { change: 'seen' }),
      row(0, { cluster: 'c2' }),
    ]);
    const w = read({ filter: { namespace: 'shop' } });
    const got = await w.until('SYNCED');
    expect(versions(got)).toEqual(['1', '3']);
    expect(got.at(-1)).toEqual({ type: 'SYNCED', id: String(ids[3]) });
    const first = got[0];
    expect(first?.type === 'ADDED' && first.id).toBe(String(ids[1]));
    expect(await w.end()).toBe(1);
  });

  it('replays nothing with sendInitialEvents=false, and stands at 0 on an empty feed', async () => {
    expect(await read().until('SYNCED')).toEqual([{ type: 'SYNCED', id: '0' }]);
    await insertRows(backend, [row(1)]);
    expect(versions(await read({ sendInitial: false }).until('SYNCED'))).toEqual([]);
  });

  it('replays at most the newest REPLAY_MAX changes', async () => {
    await insertRows(
      backend,
      Array.from({ length: REPLAY_MAX + 5 }, (_, i) => row(i)),
    );
    const ids = await backend.all<{ id: number }>('SELECT id FROM change_history ORDER BY id');
    const resumed = await read({ lastEventId: String(ids.at(-2)!.id) }).until('SYNCED');
    expect(resumed.map((r) => r.type)).toEqual(['ADDED', 'SYNCED']);
    const got = versions(await read().until('SYNCED'));
    expect(got).toHaveLength(REPLAY_MAX);
    expect(got[0]).toBe('5');
    expect(got.at(-1)).toBe(String(REPLAY_MAX + 4));
  });

  it('resumes after Last-Event-ID with the matching changes since, and no RESET', async () => {
    const ids = await insertRows(backend, [row(1), row(2), row(3, { namespace: 'other' }), row(4)]);
    const got = await read({ lastEventId: String(ids[1]), filter: { namespace: 'shop' } }).until('SYNCED');
    expect(got.map((r) => r.type)).toEqual(['ADDED', 'SYNCED']);
    expect(versions(got)).toEqual(['4']);
    expect(got.at(-1)).toEqual({ type: 'SYNCED', id: String(ids[3]) });
  });

  it('resumes after 0 when the feed was empty then', async () => {
    await insertRows(backend, [row(1), row(2)]);
    const got = await read({ lastEventId: '0' }).until('SYNCED');
    expect(versions(got)).toEqual(['1', '2']);
    expect(got.some((r) => r.type === 'RESET')).toBe(false);
  });

  it('answers an id it cannot resume from with RESET naming it, then the replay', async () => {
    const ids = await insertRows(backend, [row(1), row(2), row(3, { cluster: 'c2' })]);
    await backend.run('DELETE FROM change_history WHERE id = $id', { id: ids[0]! });
    const cases: [string, string][] = [
      [
        'nope',
        'Last-Event-ID "nope" cannot be resumed from (not an id this watch sends); the newest changes follow',
      ],
      [
        String(ids[0]),
        `Last-Event-ID "${ids[0]}" cannot be resumed from (no longer kept, or from another database); the newest changes follow`,
      ],
      [
        String(ids[2]),
        `Last-Event-ID "${ids[2]}" cannot be resumed from (no longer kept, or from another database); the newest changes follow`,
      ],
      [
        'x1',
        'Last-Event-ID "x1" cannot be resumed from (not an id this watch sends); the newest changes follow',
      ],
      [
        '1x',
        'Last-Event-ID "1x" cannot be resumed from (not an id this watch sends); the newest changes follow',
      ],
      [
        'x'.repeat(64),
        `Last-Event-ID "${'x'.repeat(64)}" cannot be resumed from (not an id this watch sends); the newest changes follow`,
      ],
      [
        'x'.repeat(100),
        `Last-Event-ID "${'x'.repeat(64)}…" cannot be resumed from (not an id this watch sends); the newest changes follow`,
      ],
    ];
    for (const [id, reason] of cases) {
      const got = await read({ lastEventId: id }).until('SYNCED');
      expect(got[0]).toEqual({ type: 'RESET', reason });
      expect(versions(got)).toEqual(['2']);
    }
    // A RESET replays even when the client asked for no initial changes.
    expect(versions(await read({ lastEventId: 'nope', sendInitial: false }).until('SYNCED'))).toEqual(['2']);
  });

  it('sends a new matching row when woken, and reads on past a full batch', async () => {
    await insertRows(backend, [row(1)]);
    const w = read({ filter: { resourceType: 'deployment' } });
    await w.until('SYNCED');
    await insertRows(backend, [row(2, { resourceType: 'configmap' }), row(3)]);
    w.wake();
    const got = await w.next();
    expect(got.type === 'ADDED' && got.change.resourceVersion).toBe('3');
    await insertRows(
      backend,
      Array.from({ length: 600 }, (_, i) => row(10 + i)),
    );
    w.wake();
    const seen: string[] = [];
    while (seen.length < 600) {
      const r = await w.next();
      if (r.type === 'ADDED') seen.push(r.change.resourceVersion);
    }
    expect(seen[0]).toBe('10');
    expect(seen.at(-1)).toBe('609');
    await w.end();
  });

  it('finds new rows by its poll when no signal comes, and says BOOKMARK past rows it leaves out', async () => {
    await insertRows(backend, [row(1)]);
    const w = read({
      subscribe: undefined,
      filter: { namespace: 'shop' },
      options: resolveWatchOptions({ heartbeatMs: 40, credentialCheckMs: 20 }),
    });
    const synced = (await w.until('SYNCED')).at(-1);
    const [other] = await insertRows(backend, [row(2, { namespace: 'other' })]);
    const mark = (await w.until('BOOKMARK')).at(-1);
    expect(mark).toEqual({ type: 'BOOKMARK', id: String(other) });
    expect(synced?.type).toBe('SYNCED');
    // Nothing new: a heartbeat.
    expect(await w.next()).toEqual({ type: 'HEARTBEAT' });
    await insertRows(backend, [row(3)]);
    const added = await w.next();
    expect(added.type === 'ADDED' && added.change.resourceVersion).toBe('3');
    await w.end();
  });

  it('ends with ERROR when its credential no longer holds', async () => {
    let holds = true;
    const w = read({
      recheck: async () => {
        if (!holds) throw new ProblemError('invalid_token', 'logged out');
      },
    });
    await w.until('SYNCED');
    holds = false;
    const error = await w.next();
    expect(error.type).toBe('ERROR');
    expect(error.type === 'ERROR' && error.problem.code).toBe('invalid_token');
    expect(error.type === 'ERROR' && error.problem.detail).toBe('logged out');
  });

  it('ends with a 401 problem for a credential check that fails otherwise', async () => {
    const w = read({
      recheck: async () => {
        throw new Error('boom');
      },
    });
    await w.until('SYNCED');
    const error = await w.next();
    expect(error.type === 'ERROR' && error.problem.code).toBe('invalid_token');
  });

  it('applies a filter computed again, and ends when it is refused', async () => {
    await insertRows(backend, [row(1)]);
    let filter: FeedFilter = { namespace: 'shop' };
    let refused = false;
    const w = read({
      filter,
      refilter: async () => {
        if (refused) throw new ProblemError('forbidden', 'no longer allowed');
        return filter;
      },
    });
    await w.until('SYNCED');
    filter = { namespace: 'other' };
    await new Promise((r) => setTimeout(r, 100));
    await insertRows(backend, [row(2), row(3, { namespace: 'other' })]);
    w.wake();
    const got = await w.next();
    expect(got.type === 'ADDED' && got.change.resourceVersion).toBe('3');
    refused = true;
    const error = await w.next();
    expect(error.type === 'ERROR' && error.problem.code).toBe('forbidden');
  });

  it('ends when its client goes away, calling onEnd once', async () => {
    const w = read();
    await w.until('SYNCED');
    expect(await w.end()).toBe(1);
  });
});

describe('ChangeWatches', () => {
  const ctx = (signal: AbortSignal): CallContext => ({
    principal: { accountId: 'a1', sessionId: 's1', workspaces: 'all' },
    client: { via: 'http' },
    signal,
  });

  it('holds at most maxPerCredential watches, and gives a slot back when one ends', async () => {
    const watches = new ChangeWatches(backend, { maxPerCredential: 1 });
    const abort = new AbortController();
    const target = async () => ({ source: source(), filter: {}, refilter: undefined });
    const body = await watches.watch(target, {}, ctx(abort.signal));
    expect(body.contentType).toBe('text/event-stream; charset=utf-8');
    expect(watches.open).toBe(1);
    await expect(watches.watch(target, {}, ctx(new AbortController().signal))).rejects.toMatchObject({
      code: 'rate_limited',
    });
    abort.abort();
    expect(watches.open).toBe(0);
  });

  it('gives the slot back when the target cannot be resolved', async () => {
    const watches = new ChangeWatches(backend, { maxPerCredential: 1 });
    await expect(
      watches.watch(
        async () => Promise.reject(new ProblemError('resource_not_found', 'no')),
        {},
        ctx(new AbortController().signal),
      ),
    ).rejects.toMatchObject({ code: 'resource_not_found' });
    expect(watches.open).toBe(0);
  });

  it('streams a new row the recorder announces, and SYNCED on a snapshot without rows', async () => {
    const watches = new ChangeWatches(backend, { maxPerCredential: 2 });
    const abort = new AbortController();
    // Already there: not replayed (sendInitialEvents=false), and an empty Last-Event-ID is none.
    await insertRows(backend, [row(0)]);
    const body = await watches.watch(
      async () => ({ source: source(), filter: {}, refilter: undefined }),
      { sendInitialEvents: false, lastEventId: '' },
      { ...ctx(abort.signal), mediaType: 'application/x-ndjson' },
    );
    const it = body.chunks[Symbol.asyncIterator]();
    const lines: string[] = [];
    const take = async (match: string) => {
      while (!lines.some((l) => l.includes(match))) {
        const r = await it.next();
        if (r.done) throw new Error('ended');
        lines.push(...r.value.split('\n'));
      }
    };
    await take('SYNCED');
    await insertRows(backend, [row(1), row(2, { cluster: 'c2' })]);
    await backend.notify('skiff_changes', 'c2');
    await backend.notify('skiff_changes', 'c1');
    await take('"ADDED"');
    expect(lines.filter((l) => l.includes('"ADDED"'))).toHaveLength(1);
    expect(lines.some((l) => l.includes('"RESET"'))).toBe(false);
    abort.abort();
    await it.return?.();

    const frozen = await watches.watch(
      async () => ({ source: undefined, filter: {}, refilter: undefined }),
      {},
      {
        ...ctx(new AbortController().signal),
        mediaType: 'application/x-ndjson',
      },
    );
    const f = frozen.chunks[Symbol.asyncIterator]();
    let text = '';
    while (!text.includes('SYNCED')) text += (await f.next()).value ?? '';
    expect(text).toBe('{"type":"SYNCED","id":"0"}\n');
    await f.return?.();
  });
});
