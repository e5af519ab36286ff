/**
 * PodUsageCache (pod-usage.ts): one metrics list per namespace and TTL, shared, failures
 * remembered.
 */
import { describe, expect, it } from 'vitest';
import type { ResourceUsage } from '../../../src-shared/contract/models';
import { PodUsageCache } from './pod-usage';

const usage = (cpu: string): ResourceUsage => ({ cpu, memory: '10Mi' });

function fixture(ttlMs = 10_000) {
  let clock = 0;
  const calls: string[] = [];
  let answer: (ns: string) => Promise<ReadonlyMap<string, ResourceUsage>> = async (ns) =>
    new Map([[`${ns}-pod`, usage(`${calls.length}m`)]]);
  const cache = new PodUsageCache(
    (ns) => {
      calls.push(ns);
      return answer(ns);
    },
    ttlMs,
    () => clock,
  );
  return {
    cache,
    calls,
    advance: (ms: number) => {
      clock += ms;
    },
    answerWith: (fn: typeof answer) => {
      answer = fn;
    },
  };
}

describe('PodUsageCache', () => {
  it('reads a namespace once per TTL, however many of its pods are read', async () => {
    const f = fixture();
    expect(await f.cache.get('a', 'a-pod')).toEqual(usage('1m'));
    expect(await f.cache.get('a', 'other')).toBeUndefined();
    f.advance(9_999);
    expect(await f.cache.get('a', 'a-pod')).toEqual(usage('1m'));
    expect(f.calls).toEqual(['a']);
  });

  it('reads the namespace again once the TTL has passed', async () => {
    const f = fixture();
    await f.cache.get('a', 'a-pod');
    f.advance(10_000);
    expect(await f.cache.get('a', 'a-pod')).toEqual(usage('2m'));
    expect(f.calls).toEqual(['a', 'a']);
  });

  it('keeps each namespace apart', async () => {
    const f = fixture();
    expect(await f.cache.get('a', 'a-pod')).toEqual(usage('1m'));
    expect(await f.cache.get('b', 'b-pod')).toEqual(usage('2m'));
    expect(await f.cache.get('b', 'a-pod')).toBeUndefined();
    expect(f.calls).toEqual(['a', 'b']);
  });

  it('shares one request among concurrent readers', async () => {
    const f = fixture();
    const answers = await Promise.all([f.cache.get('a', 'a-pod'), f.cache.get('a', 'a-pod')]);
    expect(answers).toEqual([usage('1m'), usage('1m')]);
    expect(f.calls).toEqual(['a']);
  });

  it('answers no usage when metrics fail, remembers that for the TTL, then asks again', async () => {
    const f = fixture();
    f.answerWith(async () => {
      throw new Error('metrics.k8s.io is not served');
    });
    expect(await f.cache.get('a', 'a-pod')).toBeUndefined();
    expect(await f.cache.get('a', 'a-pod')).toBeUndefined();
    expect(f.calls).toEqual(['a']);
    f.answerWith(async (ns) => new Map([[`${ns}-pod`, usage('7m')]]));
    f.advance(10_000);
    expect(await f.cache.get('a', 'a-pod')).toEqual(usage('7m'));
  });

  it('forgets namespaces whose TTL has passed when it reads another', async () => {
    const f = fixture();
    await f.cache.get('a', 'a-pod');
    f.advance(5_000);
    await f.cache.get('b', 'b-pod');
    expect(f.cache.size).toBe(2);
    f.advance(5_000);
    // 'a' is 10 s old now, 'b' 5 s: reading 'c' drops 'a' and keeps 'b'.
    await f.cache.get('c', 'c-pod');
    expect(f.cache.size).toBe(2);
    await f.cache.get('b', 'b-pod');
    expect(f.calls).toEqual(['a', 'b', 'c']);
  });
});
