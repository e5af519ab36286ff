/**
 * Where recorded rows are read from: the app's database for a live cluster, a snapshot's own
 * tables (as of its takenAt) for an opened snapshot, and nothing for a snapshot that holds none.
 */
import { describe, expect, it } from 'vitest';
import type { Queryable } from '../storage/backend';
import { recordedSource } from './source';

const db = (name: string): Queryable & { name: string } => ({
  name,
  all: async () => [],
  get: async () => undefined,
  run: async () => 0,
});

describe('recordedSource', () => {
  it('reads a live cluster from the app database, never as of a time', async () => {
    const app = db('app');
    expect(await recordedSource({ clusterId: 'c1' }, app)).toEqual({
      db: app,
      clusterId: 'c1',
      frozen: false,
    });
    expect(await recordedSource({ clusterId: 'c1', frozen: undefined }, app)).toEqual({
      db: app,
      clusterId: 'c1',
      frozen: false,
    });
  });

  it("reads a snapshot from its own tables as of when it was taken, never the app's", async () => {
    const own = db('file');
    const got = await recordedSource(
      { clusterId: 'snap-1', frozen: { recorded: async () => ({ db: own, asOfMs: 1234 }) } },
      db('app'),
    );
    expect(got).toEqual({ db: own, clusterId: 'snap-1', asOfMs: 1234, frozen: true });
  });

  it('answers nothing for a snapshot that holds no recorded tables', async () => {
    expect(
      await recordedSource({ clusterId: 's', frozen: { recorded: async () => undefined } }, db('app')),
    ).toBe(undefined);
    expect(await recordedSource({ clusterId: 's', frozen: {} }, db('app'))).toBe(undefined);
  });
});
