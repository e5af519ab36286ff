import { describe, expect, it } from 'vitest';
import type { EventChange, EventWatchRecord } from '../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../src-shared/contract/models';
import type { Problem } from '../../src-shared/contract/problem';
import { ApiError } from './client';
import { followEvents, recordReader, type WatchState, type WatchTransport } from './event-stream';
import { LiveEvents } from './event-stream-model';

const event = (eventId: string, lastTimestamp: string, message = ''): EventRecord => ({
  workspaceId: 'default',
  clusterId: 'c',
  resourceId: 'r',
  eventId,
  firstTimestamp: lastTimestamp,
  lastTimestamp,
  count: 1,
  message,
  reason: 'BackOff',
  type: 'WARNING',
  involvedObject: { kind: 'Pod', name: 'p', uid: 'u', namespace: 'ns' },
  source: { component: 'kubelet', host: 'n' },
});
const change = (type: EventChange['type'], e: EventRecord, id?: number): EventChange => ({
  type,
  ...(id !== undefined ? { id: String(id) } : {}),
  event: e,
});
const sse = (r: EventWatchRecord, name?: string) =>
  `${name ? `event: ${name}\n` : ''}${'id' in r && r.id ? `id: ${r.id}\n` : ''}data: ${JSON.stringify(r)}\n\n`;

describe('recordReader', () => {
  it('reads SSE and NDJSON records split anywhere, dropping heartbeats', () => {
    const a = change('ADDED', event('a', '2026-01-01T00:00:01Z'), 5);
    const s = `: heartbeat\n\n${sse(a)}${sse({ type: 'SYNCED', id: '5' }, 'synced')}`;
    const n = `${JSON.stringify(a)}\n{"type":"HEARTBEAT"}\n${JSON.stringify({ type: 'SYNCED', id: '5' })}\n`;
    for (const [framing, text] of [
      ['sse', s],
      ['ndjson', n],
    ] as const) {
      const read = recordReader(framing);
      const got: EventWatchRecord[] = [];
      for (let i = 0; i < text.length; i += 3) got.push(...read(text.slice(i, i + 3)));
      expect(got).toEqual([a, { type: 'SYNCED', id: '5' }]);
    }
  });
});

describe('LiveEvents', () => {
  it('keeps the list order under adds, moves and deletes, small batches and bulk alike', () => {
    const live = new LiveEvents();
    // Not in the answer's order: the model sorts.
    const many = Array.from({ length: 200 }, (_, i) =>
      change(
        'ADDED',
        event(
          `e${String((i * 37) % 200).padStart(3, '0')}`,
          `2026-01-01T00:00:${String((i * 7) % 60).padStart(2, '0')}Z`,
        ),
      ),
    );
    live.apply([...many, { type: 'SYNCED', id: '1' }]);
    expect(live.synced).toBe(true);
    const check = () => {
      const rows = live.first(live.size);
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1]!, rows[i]!];
        const [ta, tb] = [Date.parse(a.lastTimestamp), Date.parse(b.lastTimestamp)];
        expect(ta > tb || (ta === tb && a.eventId < b.eventId)).toBe(true);
      }
    };
    check();
    expect(live.size).toBe(200);
    live.apply([
      change('MODIFIED', event('e010', '2026-01-01T00:05:00Z', 'again'), 2),
      change('DELETED', event('e011', '2026-01-01T00:00:00Z'), 3),
      change('ADDED', event('new', '2026-01-01T00:00:30Z'), 4),
    ]);
    check();
    expect(live.size).toBe(200);
    expect(live.first(1)[0]!.message).toBe('again');
    expect(live.first(live.size).some((e) => e.eventId === 'e011')).toBe(false);
  });

  it('holds a replay of 100,000 events and keeps its order through single changes after it', () => {
    const live = new LiveEvents();
    const t0 = Date.parse('2026-01-01T00:00:00Z');
    const replay: EventWatchRecord[] = Array.from({ length: 100_000 }, (_, i) =>
      change(
        'ADDED',
        event(`e${(i * 7919) % 100_000}`, new Date(t0 + ((i * 104_729) % 86_400) * 1000).toISOString()),
      ),
    );
    for (let i = 0; i < replay.length; i += 500) live.apply(replay.slice(i, i + 500));
    live.apply([{ type: 'SYNCED', id: '1' }]);
    expect(live.size).toBe(100_000);
    for (let i = 0; i < 50; i++)
      live.apply([
        change('MODIFIED', event(`e${i * 13}`, new Date(t0 + 90_000_000 + i * 1000).toISOString()), i + 2),
      ]);
    const top = live.first(50).map((e) => e.eventId);
    expect(top).toEqual(Array.from({ length: 50 }, (_, i) => `e${(49 - i) * 13}`));
    const all = live.first(live.size);
    for (let i = 1; i < all.length; i++)
      expect(all[i - 1]!.lastTimestamp >= all[i]!.lastTimestamp).toBe(true);
  });

  it('a RESET drops what was held before the state that follows it', () => {
    const live = new LiveEvents();
    live.apply([change('ADDED', event('old', '2026-01-01T00:00:00Z')), { type: 'SYNCED', id: '1' }]);
    live.apply([
      { type: 'RESET', reason: 'too old' },
      change('ADDED', event('kept', '2026-01-01T00:00:00Z')),
    ]);
    expect(live.synced).toBe(false);
    expect(live.first(10).map((e) => e.eventId)).toEqual(['kept']);
  });
});

describe('followEvents', () => {
  it('reconnects after a break with the last id it saw, and refreshes the token once on a 401', async () => {
    const opened: Array<string | undefined> = [];
    const scripts: Array<string[] | { status: number }> = [
      [
        sse(change('ADDED', event('a', '2026-01-01T00:00:00Z'), 7)),
        sse({ type: 'SYNCED', id: '7' }, 'synced'),
      ],
      [
        sse(
          {
            type: 'ERROR',
            problem: { type: 'x', title: 'x', status: 401, detail: 'expired', code: 'invalid_token' },
          },
          'error',
        ),
      ],
      [sse({ type: 'SYNCED', id: '9' }, 'synced')],
    ];
    let refreshed = 0;
    const transport: WatchTransport = {
      async refresh() {
        refreshed++;
        return true;
      },
      async open(_scope, _query, lastEventId) {
        opened.push(lastEventId);
        const chunks = [...((scripts.shift() as string[] | undefined) ?? [])];
        return { framing: 'sse', next: async () => chunks.shift() ?? null, cancel() {} };
      },
    };
    const states: WatchState['kind'][] = [];
    const records: EventWatchRecord[] = [];
    let sleeps = 0;
    const watch = followEvents(
      transport,
      { workspaceId: 'default', clusterId: 'c' },
      {},
      { records: (r) => records.push(...r), state: (s) => states.push(s.kind) },
      async () => {
        sleeps++;
        await new Promise((r) => setTimeout(r, 0));
      },
    );
    while (opened.length < 4) await new Promise((r) => setTimeout(r, 1));
    watch.close();
    // First without an id; after the first stream ended, with 7; after the 401 and a refresh, 7 again.
    expect(opened.slice(0, 3)).toEqual([undefined, '7', '7']);
    expect(refreshed).toBe(1);
    expect(states).toContain('live');
    expect(states).toContain('down');
    expect(sleeps).toBeGreaterThan(0);
    expect(records.filter((r) => r.type === 'SYNCED').map((r) => (r as { id: string }).id)).toEqual([
      '7',
      '9',
    ]);
  });

  it("while the cluster's events are still arriving (503 cluster_syncing), comes back after Retry-After without growing its backoff", async () => {
    const syncing = {
      type: 'x',
      title: 'Service Unavailable',
      status: 503,
      detail: 'still arriving',
      code: 'cluster_syncing',
      progress: { items: 1200 },
      retryAfterSeconds: 3,
    } as Problem;
    const down: Problem = {
      type: 'x',
      title: 'Bad Gateway',
      status: 502,
      detail: 'gone',
      code: 'cluster_unreachable',
    };
    const refusals = [syncing, syncing, syncing, down];
    const transport: WatchTransport = {
      async open() {
        throw new ApiError(refusals.shift() ?? down);
      },
    };
    const waits: number[] = [];
    const states: WatchState[] = [];
    const watch = followEvents(
      transport,
      { workspaceId: 'default', clusterId: 'c' },
      {},
      { records: () => {}, state: (s) => states.push(s) },
      async (ms) => {
        waits.push(ms);
        await new Promise((r) => setTimeout(r, 0));
      },
    );
    while (waits.length < 5) await new Promise((r) => setTimeout(r, 1));
    watch.close();
    // Three times Retry-After; then a real failure starts the backoff at its first step, then the next.
    expect(waits.slice(0, 5)).toEqual([3_000, 3_000, 3_000, 500, 1_000]);
    expect(states.find((s) => s.kind === 'down')).toMatchObject({
      retryInMs: 3_000,
      problem: { code: 'cluster_syncing' },
    });
  });
});
