/**
 * The recorders' hooks: every recorder that wants a kind hears each change, a recorder that throws
 * stops neither the cache nor the others (and is logged), a cache is kept while any recorder keeps
 * it, and a live cluster is "viewed" once, at its first cache.
 */
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { ResourceEntry } from '../cache/entries';
import type { CacheObserver } from '../cache/resource-cache';
import { TAILORED_KINDS } from '../clusters/kind-info';
import { RecordingHooks, type ResourceRecorder } from './hooks';

const pods = TAILORED_KINDS.find((k) => k.plural === 'pods')!;
const nodes = TAILORED_KINDS.find((k) => k.plural === 'nodes')!;
const entry = (name: string): ResourceEntry => ({
  key: `ns/${name}`,
  namespace: 'ns',
  name,
  labels: undefined,
  json: '{}',
});

/** A logger whose lines are kept, to see what a failing recorder logs. */
function keptLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino({ level: 'info' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}

/** A recorder that writes down what it heard, for the kinds it wants. */
function recorder(name: string, wants: (plural: string) => boolean, keeps = false) {
  const heard: string[] = [];
  const r: ResourceRecorder = {
    name,
    observer: (clusterId, kind): CacheObserver<ResourceEntry> | undefined =>
      wants(kind.plural)
        ? {
            upserted: (e, prev) =>
              heard.push(`${clusterId}:${kind.plural}:up:${e.name}:${prev?.name ?? '-'}`),
            removed: (key, prev) => heard.push(`${clusterId}:${kind.plural}:rm:${key}:${prev?.name ?? '-'}`),
            listed: (all) => heard.push(`${clusterId}:${kind.plural}:listed:${all.length}`),
            stopped: () => heard.push(`${clusterId}:${kind.plural}:stopped`),
          }
        : undefined,
    keepsWatching: (_clusterId, kind) => keeps && wants(kind.plural),
  };
  return { r, heard };
}

describe('RecordingHooks', () => {
  it('gives no observer when no recorder wants the kind', () => {
    const hooks = new RecordingHooks(keptLogger().logger);
    expect(hooks.observer('c1', pods)).toBeUndefined();
    hooks.add(recorder('a', (p) => p === 'nodes').r);
    expect(hooks.observer('c1', pods)).toBeUndefined();
    expect(hooks.observer('c1', nodes)).toBeDefined();
  });

  it('tells every recorder that wants the kind, in order, with the previous entry', () => {
    const hooks = new RecordingHooks(keptLogger().logger);
    const a = recorder('a', () => true);
    const b = recorder('b', (p) => p === 'pods');
    hooks.add(a.r);
    hooks.add(b.r);
    const o = hooks.observer('c1', pods)!;
    o.upserted(entry('x'));
    o.upserted(entry('y'), entry('x'));
    o.removed('ns/y', entry('y'));
    o.listed([entry('x'), entry('z')]);
    o.stopped();
    const expected = [
      'c1:pods:up:x:-',
      'c1:pods:up:y:x',
      'c1:pods:rm:ns/y:y',
      'c1:pods:listed:2',
      'c1:pods:stopped',
    ];
    expect(a.heard).toEqual(expected);
    expect(b.heard).toEqual(expected);
  });

  it('logs a recorder that throws and still tells the others', () => {
    const { logger, lines } = keptLogger();
    const hooks = new RecordingHooks(logger);
    const boom = () => {
      throw new Error('boom');
    };
    hooks.add({
      name: 'broken',
      observer: () => ({ upserted: boom, removed: boom, listed: boom, stopped: boom }),
      keepsWatching: () => false,
    });
    const ok = recorder('ok', () => true);
    hooks.add(ok.r);
    const o = hooks.observer('c1', pods)!;
    expect(() => {
      o.upserted(entry('x'));
      o.removed('ns/x');
      o.listed([]);
      o.stopped();
    }).not.toThrow();
    expect(ok.heard).toEqual(['c1:pods:up:x:-', 'c1:pods:rm:ns/x:-', 'c1:pods:listed:0', 'c1:pods:stopped']);
    const failures = lines.filter((l) => l.msg === 'a recorder failed');
    expect(failures.map((l) => l.what)).toEqual(['upserted', 'removed', 'listed', 'stopped']);
    expect(failures[0]).toMatchObject({ recorder: 'broken', clusterId: 'c1', kind: 'pods', level: 50 });
    expect((failures[0]!.err as { message: string }).message).toBe('boom');
  });

  it('keeps a cache watching while any recorder keeps it', () => {
    const hooks = new RecordingHooks(keptLogger().logger);
    expect(hooks.keepsWatching('c1', pods)).toBe(false);
    hooks.add(recorder('a', () => true, false).r);
    expect(hooks.keepsWatching('c1', pods)).toBe(false);
    hooks.add(recorder('b', (p) => p === 'pods', true).r);
    expect(hooks.keepsWatching('c1', pods)).toBe(true);
    expect(hooks.keepsWatching('c1', nodes)).toBe(false);
  });

  it('names a cluster viewed at its first cache, once, whether or not anything records it', () => {
    const { logger, lines } = keptLogger();
    const hooks = new RecordingHooks(logger);
    const seen: string[] = [];
    hooks.onViewed((id) => seen.push(`first:${id}`));
    hooks.onViewed((id) => {
      if (id === 'bad') throw new Error('listener broke');
      seen.push(`second:${id}`);
    });
    expect(hooks.wasViewed('c1')).toBe(false);
    hooks.observer('c1', pods);
    hooks.observer('c1', nodes);
    hooks.observer('c2', pods);
    hooks.observer('bad', pods);
    expect(hooks.wasViewed('c1')).toBe(true);
    expect(hooks.wasViewed('c3')).toBe(false);
    expect(seen).toEqual(['first:c1', 'second:c1', 'first:c2', 'second:c2', 'first:bad']);
    const failed = lines.filter((l) => l.msg === 'a recorder failed on a newly viewed cluster');
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ clusterId: 'bad', level: 50 });
  });
});
