import { describe, expect, it } from 'vitest';
import { parseLogLine } from '../../../src-shared/logs/index';
import { Dedupe } from './dedupe';

const line = (ts: string, text: string) => parseLogLine(`${ts} ${text}`, { timestamps: true });

describe('Dedupe', () => {
  it('resumes from the start of the last second and drops exactly what was sent', () => {
    const d = new Dedupe();
    const sent = [
      line('2026-11-22T10:00:00.900000001Z', 'a'),
      line('2026-11-22T10:00:01.000000005Z', 'b'),
      line('2026-11-22T10:00:01.000000003Z', 'c'), // nanoseconds out of order within the second
      line('2026-11-22T10:00:01.000000003Z', 'c'), // the same line twice, both real
    ];
    expect(sent.map((e) => d.check(e))).toEqual([false, false, false, false]);
    expect(d.resumeSince()).toBe('2026-11-22T10:00:01Z');
    d.beginReplay();
    // What the kubelet sends back from 10:00:01, then new lines.
    const replayed = [
      sent[1]!,
      sent[2]!,
      sent[3]!,
      line('2026-11-22T10:00:01.000000003Z', 'c'), // a third copy: new
      line('2026-11-22T10:00:01.500000000Z', 'd'),
      line('2026-11-22T10:00:02.000000000Z', 'b'),
    ];
    expect(replayed.map((e) => d.check(e))).toEqual([true, true, true, false, false, false]);
  });

  it('drops anything older than the resume point and forgets on reset', () => {
    const d = new Dedupe();
    d.check(line('2026-11-22T10:00:05.1Z', 'x'));
    d.beginReplay();
    expect(d.check(line('2026-11-22T10:00:04.9Z', 'older'))).toBe(true);
    d.reset();
    expect(d.resumeSince()).toBeUndefined();
    expect(d.check(line('2026-11-22T10:00:05.1Z', 'x'))).toBe(false);
  });

  it('never drops a line without a kubelet timestamp', () => {
    const d = new Dedupe();
    const e = parseLogLine('no timestamp');
    d.check(e);
    d.beginReplay();
    expect(d.check(e)).toBe(false);
  });

  it('a resumed request before anything was delivered drops nothing, even lines out of order', () => {
    const d = new Dedupe();
    d.beginReplay();
    expect(d.check(line('2026-11-22T10:00:05.000000001Z', 'later'))).toBe(false);
    expect(d.check(line('2026-11-22T10:00:04.000000001Z', 'earlier'))).toBe(false);
  });

  it('keeps a new line stamped exactly at the start of the resume second', () => {
    const d = new Dedupe();
    d.check(line('2026-11-22T10:00:01.5Z', 'sent'));
    d.beginReplay();
    expect(d.check(line('2026-11-22T10:00:01.000000000Z', 'new at the resume point'))).toBe(false);
    expect(d.check(line('2026-11-22T10:00:01.5Z', 'sent'))).toBe(true);
  });

  it('once the resumed stream passes the overlap second, nothing more is dropped', () => {
    const d = new Dedupe();
    d.check(line('2026-11-22T10:00:01.5Z', 'a'));
    d.beginReplay();
    expect(d.check(line('2026-11-22T10:00:01.5Z', 'a'))).toBe(true);
    expect(d.check(line('2026-11-22T10:00:03.1Z', 'b'))).toBe(false);
    // The replay is over: a late line from an earlier second is passed on, not taken for a repeat.
    expect(d.check(line('2026-11-22T10:00:02.9Z', 'late'))).toBe(false);
    expect(d.check(line('2026-11-22T10:00:01.5Z', 'a'))).toBe(false);
  });

  it('remembers at most 200,000 lines of one second: the ones past that come back on a resume', () => {
    const d = new Dedupe();
    const n = 200_001;
    const lines = Array.from({ length: n }, (_, i) => line('2026-11-22T10:00:07.25Z', `line ${i}`));
    for (const e of lines) d.check(e);
    d.beginReplay();
    const dropped = lines.map((e) => d.check(e));
    expect(dropped.slice(0, n - 1).every(Boolean)).toBe(true);
    expect(dropped[n - 1]).toBe(false);
  });
});
