import { describe, expect, it } from 'vitest';
import { FollowedTails, GRACE_MS, MAX_TAILS } from './tails';

const t = (pod: string, container = 'app') => ({ namespace: 'ns', pod, container });

function clock() {
  let now = 1_000;
  return { now: () => now, advance: (ms: number) => (now += ms) };
}

describe('FollowedTails', () => {
  it('keep the last lines of the run followed, per cluster and container', () => {
    const tails = new FollowedTails({ lines: 3 });
    const h = tails.follow('c1', t('p'));
    h.push('run-1', ['a', 'b']);
    h.push('run-1', ['c', 'd']);
    h.push('run-1', []);
    expect(tails.take('c2', t('p'))).toBeUndefined();
    expect(tails.take('c1', t('p', 'other'))).toBeUndefined();
    expect(tails.take('c1', t('p'))).toEqual({ instance: 'run-1', lines: ['b', 'c', 'd'] });
  });

  it('take no notice of an empty batch, even one naming another run', () => {
    const tails = new FollowedTails({ lines: 10 });
    const h = tails.follow('c1', t('p'));
    h.push('run-1', ['a']);
    h.push('run-2', []);
    expect(tails.take('c1', t('p'))).toEqual({ instance: 'run-1', lines: ['a'] });
  });

  it('start a follower afresh once an ended tail outlived its grace', () => {
    const c = clock();
    const tails = new FollowedTails({ lines: 10, now: c.now, graceMs: 100 });
    const h = tails.follow('c1', t('p'));
    h.push('r', ['old']);
    h.end();
    c.advance(101);
    tails.follow('c1', t('p')).push('r', ['new']);
    expect(tails.take('c1', t('p'))?.lines).toEqual(['new']);
  });

  it('start empty when a new run is followed', () => {
    const tails = new FollowedTails({ lines: 10 });
    const h = tails.follow('c1', t('p'));
    h.push('run-1', ['old']);
    h.push('run-2', ['new']);
    expect(tails.take('c1', t('p'))).toEqual({ instance: 'run-2', lines: ['new'] });
  });

  it('hold nothing for a follower that got no line', () => {
    const tails = new FollowedTails({ lines: 10 });
    tails.follow('c1', t('p'));
    expect(tails.take('c1', t('p'))).toBeUndefined();
    expect(tails.size).toBe(1);
  });

  it('share one tail between followers, kept while any follows and for the grace after the last ends', () => {
    const c = clock();
    const tails = new FollowedTails({ lines: 10, now: c.now, graceMs: 100 });
    const one = tails.follow('c1', t('p'));
    const two = tails.follow('c1', t('p'));
    one.push('r', ['x']);
    one.end();
    one.end(); // once only: the second follower still follows
    c.advance(1_000);
    expect(tails.take('c1', t('p'))).toEqual({ instance: 'r', lines: ['x'] });
    // Taken while followed: it stays for the follower.
    expect(tails.size).toBe(1);
    two.push('r', ['y']);
    two.end();
    c.advance(100);
    expect(tails.take('c1', t('p'))?.lines).toEqual(['x', 'y']);
    // Taken after the last follower ended: gone.
    expect(tails.size).toBe(0);
  });

  it('drop a tail the grace after its last follower ended', () => {
    const c = clock();
    const tails = new FollowedTails({ lines: 10, now: c.now, graceMs: 100 });
    const h = tails.follow('c1', t('p'));
    h.push('r', ['x']);
    h.end();
    c.advance(101);
    expect(tails.take('c1', t('p'))).toBeUndefined();
    expect(tails.size).toBe(0);
  });

  it('forget the end when a follower comes back within the grace', () => {
    const c = clock();
    const tails = new FollowedTails({ lines: 10, now: c.now, graceMs: 100 });
    const h = tails.follow('c1', t('p'));
    h.push('r', ['x']);
    h.end();
    c.advance(50);
    tails.follow('c1', t('p'));
    c.advance(500);
    expect(tails.take('c1', t('p'))?.lines).toEqual(['x']);
  });

  it('hold at most maxTails containers, dropping the one touched longest ago', () => {
    const c = clock();
    const tails = new FollowedTails({ lines: 10, now: c.now, maxTails: 2 });
    const a = tails.follow('c1', t('a'));
    c.advance(1);
    const b = tails.follow('c1', t('b'));
    c.advance(1);
    a.push('r', ['a1']); // a is now touched last
    c.advance(1);
    b.push('r', ['b1']);
    c.advance(1);
    a.push('r', ['a2']);
    c.advance(1);
    tails.follow('c1', t('c'));
    expect(tails.size).toBe(2);
    expect(tails.take('c1', t('b'))).toBeUndefined();
    expect(tails.take('c1', t('a'))?.lines).toEqual(['a1', 'a2']);
  });

  it('bound by default to MAX_TAILS containers and a grace of GRACE_MS', () => {
    expect(MAX_TAILS).toBe(1_000);
    expect(GRACE_MS).toBe(120_000);
    const c = clock();
    const tails = new FollowedTails({ lines: 1, now: c.now });
    for (let i = 0; i <= MAX_TAILS; i++) tails.follow('c1', t(`p${i}`)).push('r', ['x']);
    expect(tails.size).toBe(MAX_TAILS);
    const h = tails.follow('c1', t('p1000'));
    h.end();
    c.advance(GRACE_MS);
    expect(tails.take('c1', t('p1000'))?.lines).toEqual(['x']);
    const again = tails.follow('c1', t('q'));
    again.push('r', ['y']);
    again.end();
    c.advance(GRACE_MS + 1);
    expect(tails.take('c1', t('q'))).toBeUndefined();
  });
});
