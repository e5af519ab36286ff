/**
 * watchStream while it runs, pulled chunk by chunk over a real feed and collection: the credential
 * checked again, the cluster away, heartbeats and bookmarks.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../../errors';
import { eventually } from '../../test-support/eventually.test-support';
import { changeIds, endAll, event, problemOf, start } from './stream.test-support';

afterEach(endAll);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/**
 * The chunk, or a failure if none comes within 10 s: the stream slept through what it should say.
 * Generous on a busy machine, and still short of the heartbeat tick (the harness's heartbeatMs of
 * 60 s is checked every 15 s), the next moment a stream that missed the change would speak.
 */
const within = <T>(p: Promise<T>): Promise<T> =>
  Promise.race([
    p,
    sleep(10_000).then(() => {
      throw new Error('nothing came within 10 s');
    }),
  ]);

describe('watchStream: the credential is checked again while it runs', () => {
  it('a check that fails with a problem ends the watch with an ERROR carrying that problem', async () => {
    const recheck = () =>
      Promise.reject(new ProblemError('forbidden', 'no longer a member of this workspace'));
    const w = start({ sendInitial: false, recheck, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    const got = await w.until('ERROR');
    expect(problemOf(got).code).toBe('forbidden');
    expect(await w.next()).toBeUndefined();
    expect(w.ends()).toBe(1);
  });

  it('a check that fails any other way ends the watch as invalid_token', async () => {
    const recheck = () => Promise.reject(new Error('token store unreadable'));
    const w = start({ sendInitial: false, recheck, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    const got = await w.until('ERROR');
    expect(problemOf(got).code).toBe('invalid_token');
    expect(problemOf(got).status).toBe(401);
    expect(await w.next()).toBeUndefined();
  });

  it('a credential that holds is checked again and again, and the changes keep coming', async () => {
    let checks = 0;
    const recheck = async () => {
      checks++;
    };
    const w = start({ sendInitial: false, recheck, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    await eventually(async () => expect(checks).toBeGreaterThanOrEqual(3));
    w.add(event('Watched'));
    expect(changeIds((await w.next())!)).toEqual([String(w.start + 1)]);
  });

  it('a check still running is not started a second time', async () => {
    let checks = 0;
    const recheck = () => {
      checks++;
      return new Promise<void>(() => {});
    };
    const w = start({ sendInitial: false, recheck, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    await eventually(async () => expect(checks).toBe(1));
    await sleep(150);
    expect(checks).toBe(1);
  });
});

describe('watchStream: while the cluster is away', () => {
  it('says STATUS stale with since when and why, once, and STATUS not stale when it is back', async () => {
    const w = start({ sendInitial: false, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    // The stream is waiting for something to happen when the cluster goes away.
    const waiting = w.next();
    await sleep(50);
    w.cache.staleSince = '2026-03-04T05:06:07.000Z';
    w.cache.staleCause = new ProblemError('cluster_unreachable', 'connection refused');
    const stale = await within(waiting);
    expect(stale).toHaveLength(1);
    expect(stale![0]).toMatchObject({ type: 'STATUS', stale: true, staleSince: '2026-03-04T05:06:07.000Z' });
    expect((stale![0] as { problem: { code: string } }).problem.code).toBe('cluster_unreachable');
    // Said once: what comes next is the next change, not the same STATUS again.
    w.add(event('Watched'));
    expect(changeIds((await w.next())!)).toEqual([String(w.start + 1)]);
    const back = w.next();
    await sleep(50);
    w.cache.staleSince = undefined;
    w.cache.staleCause = undefined;
    expect(await within(back)).toEqual([{ type: 'STATUS', stale: false }]);
  });

  it('a stale cluster without a known cause gets STATUS stale without a problem', async () => {
    const w = start({ sendInitial: false, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    w.cache.staleSince = '2026-03-04T05:06:07.000Z';
    expect(await w.next()).toEqual([{ type: 'STATUS', stale: true, staleSince: '2026-03-04T05:06:07.000Z' }]);
  });

  it("keeps the cluster's event cache marked in use, so it is not stopped as idle while watched", async () => {
    const w = start({ sendInitial: false, options: { credentialCheckMs: 10 } });
    await w.until('SYNCED');
    const before = Date.now();
    await eventually(async () => expect(w.cache.lastUsed).toBeGreaterThanOrEqual(before));
  });
});

describe('watchStream: heartbeats and bookmarks', () => {
  it('a heartbeat comes only after heartbeatMs without output, also after another heartbeat', async () => {
    const w = start({ sendInitial: false, options: { heartbeatMs: 400 } });
    const t0 = Date.now();
    await w.until('SYNCED');
    expect(await w.next()).toEqual([{ type: 'HEARTBEAT' }]);
    const t1 = Date.now();
    expect(t1 - t0).toBeGreaterThanOrEqual(400);
    expect(await w.next()).toEqual([{ type: 'HEARTBEAT' }]);
    expect(Date.now() - t1).toBeGreaterThanOrEqual(250);
  });

  it('changes the filter leaves out send nothing, then one BOOKMARK at the feed head instead of a heartbeat', async () => {
    const w = start({ sendInitial: false, options: { heartbeatMs: 50 } });
    await w.until('SYNCED');
    w.add(event('Other'));
    w.add(event('Other'));
    expect(await w.next()).toEqual([{ type: 'BOOKMARK', id: String(w.start + 2) }]);
    // The client now stands at the head: the next quiet time is a plain heartbeat.
    expect(await w.next()).toEqual([{ type: 'HEARTBEAT' }]);
  });

  it('after a change the client was sent, a quiet time is a heartbeat, not a BOOKMARK', async () => {
    const w = start({ sendInitial: false, options: { heartbeatMs: 50 } });
    await w.until('SYNCED');
    w.add(event('Other'));
    w.add(event('Watched'));
    expect(changeIds((await w.next())!)).toEqual([String(w.start + 2)]);
    expect(await w.next()).toEqual([{ type: 'HEARTBEAT' }]);
  });
});
