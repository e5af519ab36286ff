/**
 * The event list's filter: one event against each filter (matchesEvent), and the rows of a view
 * (eventRows) against a brute-force reading of the same filters, newest first then by eventId.
 */
import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { Collection } from '../cache/collection';
import { lcg, pick } from '../cache/seeded-random.test-support';
import { compareEventEntries, EVENT_INDEXES, type EventEntry, eventEntry } from './entries';
import { type EventFilter, eventRows, matchesEvent } from './filter';

const T0 = Date.UTC(2026, 4, 1, 12, 0, 0);
const at = (s: number) => T0 + s * 1000;

interface Ev {
  id: string;
  s: number;
  type?: 'Normal' | 'Warning';
  reason?: string;
  ns?: string;
  kind?: string;
  name?: string;
}

function ev(e: Ev): EventEntry {
  const ts = new Date(at(e.s)).toISOString();
  const ns = e.ns ?? 'shop';
  return eventEntry(
    {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: { name: e.id, namespace: ns || 'default', uid: e.id },
      involvedObject: { kind: e.kind ?? 'Pod', name: e.name ?? 'web', namespace: ns, uid: `o-${e.name}` },
      reason: e.reason ?? 'Pulled',
      type: e.type ?? 'Normal',
      firstTimestamp: ts,
      lastTimestamp: ts,
      message: e.id,
    } as unknown as KubeObject,
    'c1',
  );
}

/** Inserted neither newest-first nor by id; ties in time broken by eventId. */
const EVENTS: Ev[] = [
  { id: 'e07', s: 20, type: 'Warning', reason: 'BackOff' },
  { id: 'e02', s: 10 },
  { id: 'e09', s: 30, kind: 'Node', name: 'node-a', ns: '' },
  { id: 'e01', s: 20, reason: 'BackOff', name: 'api' },
  { id: 'e05', s: 40, type: 'Warning', ns: 'batch', kind: 'Job', name: 'nightly' },
  { id: 'e03', s: 20, type: 'Warning', kind: 'Deployment', name: 'web' },
  { id: 'e08', s: 5, reason: 'BackOff', ns: 'batch' },
  { id: 'e04', s: 30, type: 'Warning', reason: 'NodeNotReady', kind: 'Node', name: 'node-b', ns: '' },
];

function snapshot() {
  const c = new Collection(compareEventEntries, EVENT_INDEXES);
  for (const e of EVENTS) c.upsert(ev(e));
  return c.view();
}

const all: EventFilter = { resourceEvents: true, systemEvents: true };
const ids = (rows: readonly EventEntry[]) => rows.map((e) => e.eventId);

describe('matchesEvent: one event against the filters of the event list', () => {
  const warning = ev({ id: 'w', s: 20, type: 'Warning', reason: 'BackOff', kind: 'Deployment', name: 'web' });
  const node = ev({ id: 'n', s: 20, kind: 'Node', name: 'node-a', ns: '' });

  it('an event passes every filter it matches and no filter it does not', () => {
    expect(matchesEvent(warning, all)).toBe(true);
    expect(matchesEvent(warning, { ...all, type: 'WARNING' })).toBe(true);
    expect(matchesEvent(warning, { ...all, type: 'NORMAL' })).toBe(false);
    expect(matchesEvent(warning, { ...all, reason: 'BackOff' })).toBe(true);
    expect(matchesEvent(warning, { ...all, reason: 'Pulled' })).toBe(false);
    expect(matchesEvent(warning, { ...all, namespace: 'shop' })).toBe(true);
    expect(matchesEvent(warning, { ...all, namespace: 'batch' })).toBe(false);
    expect(matchesEvent(warning, { ...all, kind: 'deployment' })).toBe(true);
    expect(matchesEvent(warning, { ...all, kind: 'Deployment' })).toBe(false);
    expect(matchesEvent(warning, { ...all, name: 'web' })).toBe(true);
    expect(matchesEvent(warning, { ...all, name: 'api' })).toBe(false);
  });

  it('resource events pass only with resourceEvents, events of cluster-scoped objects only with systemEvents', () => {
    expect(matchesEvent(warning, { resourceEvents: true, systemEvents: false })).toBe(true);
    expect(matchesEvent(warning, { resourceEvents: false, systemEvents: true })).toBe(false);
    expect(matchesEvent(node, { resourceEvents: false, systemEvents: true })).toBe(true);
    expect(matchesEvent(node, { resourceEvents: true, systemEvents: false })).toBe(false);
  });

  it('since and until are inclusive bounds on lastTimestamp', () => {
    expect(matchesEvent(warning, { ...all, sinceMs: at(20) })).toBe(true);
    expect(matchesEvent(warning, { ...all, sinceMs: at(20) + 1 })).toBe(false);
    expect(matchesEvent(warning, { ...all, untilMs: at(20) })).toBe(true);
    expect(matchesEvent(warning, { ...all, untilMs: at(20) - 1 })).toBe(false);
    expect(matchesEvent(warning, { ...all, sinceMs: at(20), untilMs: at(20) })).toBe(true);
  });
});

describe('eventRows: the event list, newest first then by eventId', () => {
  it.each<[string, EventFilter, string[]]>([
    ['no filter', all, ['e05', 'e04', 'e09', 'e01', 'e03', 'e07', 'e02', 'e08']],
    ['type only', { ...all, type: 'WARNING' }, ['e05', 'e04', 'e03', 'e07']],
    ['reason only', { ...all, reason: 'BackOff' }, ['e01', 'e07', 'e08']],
    ['namespace only', { ...all, namespace: 'batch' }, ['e05', 'e08']],
    ['kind only', { ...all, kind: 'node' }, ['e04', 'e09']],
    ['name only', { ...all, name: 'web' }, ['e03', 'e07', 'e02', 'e08']],
    ['resource events only', { ...all, systemEvents: false }, ['e05', 'e01', 'e03', 'e07', 'e02', 'e08']],
    ['system events only', { ...all, resourceEvents: false }, ['e04', 'e09']],
    ['type and reason', { ...all, type: 'WARNING', reason: 'BackOff' }, ['e07']],
    ['namespace and name', { ...all, namespace: 'shop', name: 'web' }, ['e03', 'e07', 'e02']],
    ['since, inclusive', { ...all, sinceMs: at(30) }, ['e05', 'e04', 'e09']],
    ['until, inclusive', { ...all, untilMs: at(20) }, ['e01', 'e03', 'e07', 'e02', 'e08']],
    ['since and until', { ...all, sinceMs: at(10), untilMs: at(20) }, ['e01', 'e03', 'e07', 'e02']],
    ['until with type', { ...all, type: 'WARNING', untilMs: at(30) }, ['e04', 'e03', 'e07']],
    ['since with name', { ...all, name: 'web', sinceMs: at(10) }, ['e03', 'e07', 'e02']],
    ['until before every event', { ...all, untilMs: at(5) - 1 }, []],
    ['nothing enabled', { resourceEvents: false, systemEvents: false }, []],
  ])('%s', (_, f, expected) => {
    expect(ids(eventRows(snapshot(), f))).toEqual(expected);
  });

  it('answers each filter of one snapshot for itself, however often asked', () => {
    const s = snapshot();
    expect(ids(eventRows(s, { ...all, name: 'web' }))).toEqual(['e03', 'e07', 'e02', 'e08']);
    expect(ids(eventRows(s, { ...all, name: 'api' }))).toEqual(['e01']);
    expect(ids(eventRows(s, { ...all, sinceMs: at(30) }))).toEqual(['e05', 'e04', 'e09']);
    expect(ids(eventRows(s, { ...all, sinceMs: at(40) }))).toEqual(['e05']);
    expect(ids(eventRows(s, { ...all, untilMs: at(10) }))).toEqual(['e02', 'e08']);
    expect(ids(eventRows(s, { ...all, untilMs: at(5) }))).toEqual(['e08']);
    expect(ids(eventRows(s, { ...all, type: 'WARNING', name: 'web' }))).toEqual(['e03', 'e07']);
    expect(ids(eventRows(s, { ...all, type: 'NORMAL', name: 'web' }))).toEqual(['e02', 'e08']);
  });
});

const NAMESPACES = ['shop', 'batch', 'kube-system'];
const KINDS = ['Pod', 'Deployment', 'Node'];
const REASONS = ['BackOff', 'Pulled', 'FailedScheduling'];

/** Events in a shuffled order with colliding timestamps, so order comes from the code, not the fixture. */
function events(n: number): EventEntry[] {
  const random = lcg(n);
  const out: EventEntry[] = [];
  for (let i = 0; i < n; i++) {
    const kind = pick(random, KINDS);
    const namespace = kind === 'Node' ? '' : pick(random, NAMESPACES);
    const at = new Date(Date.UTC(2026, 10, 1, 0, 0, Math.floor(random() * 40))).toISOString();
    const raw = {
      apiVersion: 'v1',
      kind: 'Event',
      metadata: {
        name: `e${i}`,
        namespace: namespace || 'default',
        uid: `uid-${Math.floor(random() * 1e9)}-${i}`,
      },
      involvedObject: { kind, name: `obj-${i % 7}`, namespace, uid: `o-${i % 7}` },
      reason: pick(random, REASONS),
      type: random() < 0.4 ? 'Warning' : 'Normal',
      lastTimestamp: at,
      firstTimestamp: at,
      message: 'm',
    } as unknown as KubeObject;
    out.push(eventEntry(raw, 'c1'));
  }
  return out;
}

function eventCollection(entries: EventEntry[]) {
  const c = new Collection(compareEventEntries, EVENT_INDEXES);
  for (const e of entries) c.upsert(e);
  return c;
}

/**
 * The list without its indexes: every entry through matchesEvent (pinned event by event above), so
 * the list's index and bisection shortcuts answer what the watch's per-event test answers.
 */
function bruteForce(entries: EventEntry[], f: EventFilter): string[] {
  return entries
    .filter((e) => matchesEvent(e, f))
    .sort((a, b) => b.lastMs - a.lastMs || (a.eventId < b.eventId ? -1 : 1))
    .map((e) => e.eventId);
}

describe('event list queries', () => {
  const all = events(600);
  const view = eventCollection(all).view();
  const base = { resourceEvents: true, systemEvents: true };
  const since = Date.UTC(2026, 10, 1, 0, 0, 25);
  const filters: Array<[string, EventFilter]> = [
    ['no filter', base],
    ['type', { ...base, type: 'WARNING' }],
    ['namespace', { ...base, namespace: 'shop' }],
    ['reason and type', { ...base, reason: 'BackOff', type: 'NORMAL' }],
    ['kind, namespace and name', { ...base, kind: 'pod', namespace: 'batch', name: 'obj-3' }],
    ['since', { ...base, sinceMs: since }],
    ['since with type', { ...base, sinceMs: since, type: 'WARNING' }],
    ['resource events only', { ...base, systemEvents: false }],
    ['system events only', { ...base, resourceEvents: false }],
    ['system events only, of a kind', { ...base, resourceEvents: false, kind: 'node' }],
    ['nothing enabled', { resourceEvents: false, systemEvents: false }],
  ];
  it.each(filters)('answers exactly the matching events, newest first then by eventId: %s', (_, f) => {
    expect(eventRows(view, f).map((e) => e.eventId)).toEqual(bruteForce(all, f));
  });

  it('serves the same rows twice from the same view without recomputing', () => {
    const f = { ...base, type: 'WARNING' as const, namespace: 'shop' };
    expect(eventRows(view, f)).toBe(eventRows(view, f));
  });
});
