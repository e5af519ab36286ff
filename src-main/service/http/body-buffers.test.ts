import { describe, expect, it } from 'vitest';
import { BodyBuffers } from './body-buffers';

describe('BodyBuffers', () => {
  it('rounds a request up to a power-of-two class of at least 16 KiB', () => {
    const pool = new BodyBuffers();
    expect(pool.take(1).length).toBe(16 * 1024);
    expect(pool.take(16 * 1024).length).toBe(16 * 1024);
    expect(pool.take(16 * 1024 + 1).length).toBe(32 * 1024);
    expect(pool.take(100_000).length).toBe(128 * 1024);
  });

  it('hands a returned buffer to the next taker of its class, and not to another class', () => {
    const pool = new BodyBuffers();
    const first = pool.take(20_000);
    pool.give(first);
    expect(pool.pooledBytes).toBe(32 * 1024);
    expect(pool.take(17_000)).toBe(first);
    expect(pool.pooledBytes).toBe(0);
    pool.give(first);
    expect(pool.take(40_000)).not.toBe(first);
    expect(pool.take(30_000)).toBe(first);
  });

  it('keeps every buffer returned to a class, and gives each back once before allocating anew', () => {
    const pool = new BodyBuffers();
    const first = pool.take(20_000);
    const second = pool.take(20_000);
    pool.give(first);
    pool.give(second);
    expect(pool.pooledBytes).toBe(64 * 1024);
    const again = [pool.take(20_000), pool.take(20_000)];
    expect(new Set(again)).toEqual(new Set([first, second]));
    const fresh = pool.take(20_000);
    expect(Buffer.isBuffer(fresh)).toBe(true);
    expect(fresh.length).toBe(32 * 1024);
    expect(again).not.toContain(fresh);
  });

  it('keeps a buffer of exactly 4 MiB, the largest class', () => {
    const pool = new BodyBuffers();
    const largest = pool.take(4 * 1024 * 1024);
    expect(largest.length).toBe(4 * 1024 * 1024);
    pool.give(largest);
    expect(pool.pooledBytes).toBe(4 * 1024 * 1024);
    expect(pool.take(4 * 1024 * 1024)).toBe(largest);
  });

  it('does not keep buffers over 4 MiB, nor buffers of a size it never gives', () => {
    const pool = new BodyBuffers();
    const huge = pool.take(5 * 1024 * 1024);
    expect(huge.length).toBe(5 * 1024 * 1024);
    pool.give(huge);
    pool.give(Buffer.alloc(20_000));
    expect(pool.pooledBytes).toBe(0);
  });

  it('keeps no more idle bytes than its bound', () => {
    const pool = new BodyBuffers(64 * 1024);
    const taken = [pool.take(30_000), pool.take(30_000), pool.take(30_000)];
    for (const b of taken) pool.give(b);
    expect(pool.pooledBytes).toBe(64 * 1024);
  });
});
