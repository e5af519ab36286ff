import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { Collection } from '../cache/collection';
import { type EventFilter, eventRows, matchesEvent } from '../cache/list-queries';
import { compareEventEntries, EVENT_INDEXES, type EventEntry, eventEntry } from './entries';

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
