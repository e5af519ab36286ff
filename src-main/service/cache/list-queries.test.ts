import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../src-shared/contract/models';
import { parseSelector, type Selector } from '../../../src-shared/kube/selector';
import { compareResources, labelKeys, type ResourceEntry, resourceEntry } from '../clusters/entries';
import { compareEventEntries, EVENT_INDEXES, type EventEntry, eventEntry } from '../events/entries';
import { Collection } from './collection';
import { type EventFilter, eventRows, resourceRows } from './list-queries';

function lcg(seed: number) {
  let s = seed >>> 0;
  return () => {
    s = (Math.imul(s, 1664525) + 1013904223) >>> 0;
    return s / 2 ** 32;
  };
}
const pick = <T>(random: () => number, items: readonly T[]) => items[Math.floor(random() * items.length)]!;

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

function bruteForce(entries: EventEntry[], f: EventFilter): string[] {
  return entries
    .filter(
      (e) =>
        (f.type === undefined || e.type === f.type) &&
        (f.reason === undefined || e.reason === f.reason) &&
        (f.namespace === undefined || e.namespace === f.namespace) &&
        (f.kind === undefined || e.kindKey === f.kind) &&
        (f.name === undefined || e.name === f.name) &&
        (f.sinceMs === undefined || e.lastMs >= f.sinceMs) &&
        (e.category === 'resource' ? f.resourceEvents : f.systemEvents),
    )
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

describe('resource list queries', () => {
  const random = lcg(3);
  const pods: ResourceEntry[] = [];
  for (let i = 0; i < 300; i++) {
    const namespace = pick(random, NAMESPACES);
    const labels: Record<string, string> = { app: pick(random, ['web', 'api', 'db']) };
    if (random() < 0.5) labels.tier = pick(random, ['front', 'back']);
    pods.push(
      resourceEntry(
        { metadata: { name: `p${Math.floor(random() * 1e6)}-${i}`, namespace, labels } },
        'v1',
        'Pod',
      ),
    );
  }
  const c = new Collection(compareResources, { label: labelKeys });
  for (const p of pods) c.upsert(p);
  const view = c.view();

  const matches = (sel: Selector | undefined, ns: string | undefined) =>
    [...pods]
      .sort(compareResources)
      .filter(
        (p) =>
          (ns === undefined || p.namespace === ns) &&
          (sel === undefined ||
            sel.every((r) => {
              const v = p.labels?.[r.key];
              if (r.op === '=' || r.op === 'in') return v !== undefined && r.values.includes(v);
              if (r.op === '!=' || r.op === 'notin') return v === undefined || !r.values.includes(v);
              return r.op === 'exists' ? v !== undefined : v === undefined;
            })),
      )
      .map((p) => p.key);

  it.each([
    ['app=web', undefined],
    ['app=web,tier=front', undefined],
    ['app in (web,db),tier!=back', 'shop'],
    ['tier', 'batch'],
    ['!tier,app=api', undefined],
    ['app=nothing', undefined],
  ])('answers %s (namespace %s) exactly, in namespace/name order', (text, ns) => {
    const parsed = parseSelector(text);
    if (!parsed.ok) throw new Error(parsed.message);
    expect(resourceRows(view, ns, parsed.selector).map((r) => r.key)).toEqual(
      matches(parsed.selector, ns),
    );
  });

  it('answers a namespace without a selector as that namespace, in order', () => {
    expect(resourceRows(view, 'batch', undefined).map((r) => r.key)).toEqual(matches(undefined, 'batch'));
  });

  it('stores each object as JSON with managedFields removed and apiVersion and kind filled in', () => {
    const e = resourceEntry(
      { metadata: { name: 'a', namespace: 'n', managedFields: [{ x: 1 }] } },
      'v1',
      'Pod',
    );
    expect(JSON.parse(e.json)).toEqual({
      apiVersion: 'v1',
      kind: 'Pod',
      metadata: { name: 'a', namespace: 'n' },
    });
  });
});
