import { describe, expect, it } from 'vitest';
import type { ChangeBefore } from '../../../src-shared/contract/diagnosis-operations';
import { beforeText, changeSentence, clockText, onsetText } from './changed-before';

const local = (h: number, m: number) => new Date(2026, 0, 31, h, m, 13).toISOString();

describe('changed before it started failing: words', () => {
  it('reads the issue’s sentence', () => {
    const change: ChangeBefore = {
      time: local(2, 7),
      ref: { kind: 'Deployment', resourceType: 'deployment', namespace: 'shop', name: 'checkout', uid: 'u' },
      change: 'updated',
      resourceVersion: '9',
      summary: 'image app: 1.4.1 → 1.4.2',
      patch: [],
      relation: 'owner',
      beforeOnsetMs: 3 * 60_000 + 5_000,
    };
    const onset = onsetText({
      onset: local(2, 10),
      signals: [
        { type: 'CrashLoopBackOff', message: 'x' },
        { type: 'FirstBackOff', message: 'y', time: local(2, 10), onset: true },
      ],
    });
    expect(changeSentence(change, onset)).toBe(
      'Deployment checkout: image app: 1.4.1 → 1.4.2 at 02:07, 3 min before the first BackOff at 02:10',
    );
  });

  it('names each onset, and falls back when none is marked', () => {
    const at = local(9, 5);
    const of = (type: string) => onsetText({ onset: at, signals: [{ type, message: '', onset: true }] });
    expect(of('FirstRestart')).toBe('the first restart at 09:05');
    expect(of('LastRestart')).toBe('the last restart at 09:05');
    expect(of('FirstWarning')).toBe('the first Warning event at 09:05');
    expect(of('ConditionTransition')).toBe('the condition changed at 09:05');
    expect(of('Created')).toBe('it was created at 09:05');
    expect(of('OnsetUnknown')).toBe('now at 09:05');
    expect(of('Other')).toBe('the failure started at 09:05');
    expect(onsetText({ onset: at, signals: [{ type: 'FirstBackOff', message: '' }] })).toBe(
      'the failure started at 09:05',
    );
    expect(onsetText({ onset: null, signals: [] })).toBe('the failure started');
  });

  it('says how long before', () => {
    expect(beforeText(-1)).toBe('at the time of');
    expect(beforeText(0)).toBe('less than a minute before');
    expect(beforeText(59_999)).toBe('less than a minute before');
    expect(beforeText(60_000)).toBe('1 min before');
    expect(beforeText(119 * 60_000)).toBe('119 min before');
    expect(beforeText(125 * 60_000)).toBe('2 h 5 min before');
  });

  it('shows a time to the minute, or the text as it came', () => {
    expect(clockText(local(23, 59))).toBe('23:59');
    expect(clockText('later')).toBe('later');
  });
});
