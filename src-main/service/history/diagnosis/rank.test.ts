/**
 * Which changes a diagnosis lists and in what order (rank.ts): symptoms left out, directness times
 * closeness, and the tie-breaks between a rollout and what it created.
 */
import { describe, expect, it } from 'vitest';
import { DIRECTNESS, kept, type RankedRow, rankChanges, reportOnly, scoreOf } from './rank';

const MIN = 60_000;
const WINDOW = 30 * MIN;

let nextId = 1;
function row(over: Partial<RankedRow>): RankedRow {
  return {
    id: nextId++,
    time: '2026-01-31T02:07:00.000Z',
    ref: { kind: 'Deployment', resourceType: 'deployment', namespace: 'shop', name: 'checkout', uid: 'u' },
    change: 'updated',
    resourceVersion: '1',
    summary: 's',
    patch: [{ op: 'replace', path: '/spec/template/spec/containers/0/image', value: 'x' }],
    relation: 'owner',
    beforeOnsetMs: 3 * MIN,
    ...over,
  };
}

describe('reportOnly', () => {
  it('is true only for a non-empty patch entirely under /status and /metadata', () => {
    expect(reportOnly([{ path: '/status' }])).toBe(true);
    expect(reportOnly([{ path: '/metadata' }])).toBe(true);
    expect(reportOnly([{ path: '/status/replicas' }, { path: '/status/conditions/0' }])).toBe(true);
    expect(reportOnly([{ path: '/metadata/annotations/a' }, { path: '/status/replicas' }])).toBe(true);
    expect(reportOnly([{ path: '/metadata/annotations/a' }, { path: '/spec/replicas' }])).toBe(false);
    expect(reportOnly([{ path: '/metadatax' }])).toBe(false);
    expect(reportOnly([{ path: '/status/replicas' }, { path: '/spec/replicas' }])).toBe(false);
    expect(reportOnly([{ path: '/statusx' }])).toBe(false);
    expect(reportOnly([])).toBe(false);
  });
});

describe('kept', () => {
  const status = [{ op: 'replace' as const, path: '/status/readyReplicas', value: 1 }];
  it('leaves out the object’s own creation and report-only updates of it and its owners', () => {
    const revision = [{ op: 'add' as const, path: '/metadata/annotations/revision', value: '2' }];
    expect(kept({ relation: 'self', change: 'created', patch: [] })).toBe(false);
    expect(kept({ relation: 'self', change: 'updated', patch: status })).toBe(false);
    expect(kept({ relation: 'owner', change: 'updated', patch: status })).toBe(false);
    expect(kept({ relation: 'owner', change: 'updated', patch: [...revision, ...status] })).toBe(false);
    expect(kept({ relation: 'uses', change: 'updated', patch: revision })).toBe(true);
  });
  it('keeps a node’s status (its conditions), spec changes, owners created, deletions', () => {
    expect(kept({ relation: 'node', change: 'updated', patch: status })).toBe(true);
    expect(kept({ relation: 'uses', change: 'updated', patch: status })).toBe(true);
    expect(kept({ relation: 'self', change: 'updated', patch: [{ op: 'add', path: '/spec/x' }] })).toBe(true);
    expect(kept({ relation: 'owner', change: 'created', patch: [] })).toBe(true);
    expect(kept({ relation: 'self', change: 'deleted', patch: status })).toBe(true);
    expect(kept({ relation: 'owner', change: 'deleted', patch: status })).toBe(true);
  });
});

describe('scoreOf', () => {
  it('is the directness at the onset, half of it at the window’s start and beyond', () => {
    expect(scoreOf('self', 0, WINDOW)).toBe(1);
    expect(scoreOf('owner', 0, WINDOW)).toBe(0.8);
    expect(scoreOf('uses', WINDOW, WINDOW)).toBe(0.3);
    expect(scoreOf('node', 2 * WINDOW, WINDOW)).toBe(0.2);
    expect(scoreOf('namespace', 15 * MIN, WINDOW)).toBeCloseTo(0.225);
    expect(scoreOf('autoscaler', 15 * MIN, WINDOW)).toBeCloseTo(0.375);
  });
  it('counts whole minutes, and a change just after the onset as at it', () => {
    expect(scoreOf('self', 3 * MIN + 40_000, WINDOW)).toBe(scoreOf('self', 3 * MIN, WINDOW));
    expect(scoreOf('self', 59_999, WINDOW)).toBe(1);
    expect(scoreOf('self', -4_000, WINDOW)).toBe(1);
    expect(scoreOf('self', 4 * MIN, WINDOW)).toBeLessThan(scoreOf('self', 3 * MIN, WINDOW));
  });
  it('ranks the relations in the documented order', () => {
    expect(
      Object.entries(DIRECTNESS)
        .sort((a, b) => b[1] - a[1])
        .map(([k]) => k),
    ).toEqual(['self', 'owner', 'uses', 'autoscaler', 'node', 'namespace']);
  });
});

describe('rankChanges', () => {
  it('orders by score: a close ConfigMap edit before a Deployment change 20 min earlier', () => {
    const deploy = row({ beforeOnsetMs: 20 * MIN });
    const config = row({
      relation: 'uses',
      beforeOnsetMs: 1 * MIN,
      ref: { ...deploy.ref, kind: 'ConfigMap' },
    });
    const quota = row({ relation: 'namespace', beforeOnsetMs: 0 });
    expect(rankChanges([quota, deploy, config], WINDOW, 10)).toEqual([config, deploy, quota]);
  });

  it('a rollout’s update comes before the ReplicaSet it created in the same minute', () => {
    const update = row({ beforeOnsetMs: 3 * MIN + 20_000 });
    const created = row({ change: 'created', beforeOnsetMs: 3 * MIN + 10_000 });
    const deleted = row({ change: 'deleted', beforeOnsetMs: 3 * MIN + 5_000 });
    expect(rankChanges([deleted, created, update], WINDOW, 10)).toEqual([update, created, deleted]);
  });

  it('then the later change, then the newer row', () => {
    const early = row({ beforeOnsetMs: 3 * MIN + 30_000 });
    const late = row({ beforeOnsetMs: 3 * MIN + 1_000 });
    const a = row({ beforeOnsetMs: 3 * MIN });
    const b = row({ beforeOnsetMs: 3 * MIN });
    expect(rankChanges([early, a, late, b], WINDOW, 10)).toEqual([b, a, late, early]);
  });

  it('drops what is not kept and cuts at max', () => {
    const rows = [
      row({ relation: 'self', change: 'created' }),
      row({ beforeOnsetMs: 1 * MIN }),
      row({ beforeOnsetMs: 2 * MIN }),
      row({ beforeOnsetMs: 3 * MIN }),
    ];
    expect(rankChanges(rows, WINDOW, 2)).toEqual([rows[1], rows[2]]);
  });
});
