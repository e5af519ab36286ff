import { describe, expect, it } from 'vitest';
import {
  describeRange,
  fromLocalInput,
  NO_RANGE,
  rangeFromInputs,
  rangeFromSelection,
  rangeQuery,
  toLocalInput,
} from './history-range';

const fmt = (iso: string) => `<${iso}>`;

describe('rangeQuery', () => {
  it('sends only the ends that are set', () => {
    expect(rangeQuery(NO_RANGE)).toEqual({});
    expect(rangeQuery({ since: '1h', until: null })).toEqual({ since: '1h' });
    expect(rangeQuery({ since: null, until: '2026-01-31T12:00:00.000Z' })).toEqual({
      until: '2026-01-31T12:00:00.000Z',
    });
  });
});

describe('datetime-local round trip', () => {
  it('shows an instant in local time and reads it back to the same instant', () => {
    const iso = '2026-03-04T05:06:07.000Z';
    const local = toLocalInput(iso);
    expect(local).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
    expect(fromLocalInput(local)).toBe(iso);
  });

  it('shows nothing for a duration, nothing, or garbage', () => {
    expect(toLocalInput('15m')).toBe('');
    expect(toLocalInput(null)).toBe('');
    expect(toLocalInput('yesterday')).toBe('');
  });

  it('reads a value without seconds, and refuses text that is not one', () => {
    expect(fromLocalInput(toLocalInput('2026-03-04T05:06:00.000Z').slice(0, 16))).toBe(
      '2026-03-04T05:06:00.000Z',
    );
    expect(fromLocalInput('')).toBeNull();
    expect(fromLocalInput('2026-13-45T99:99')).toBeNull();
    expect(fromLocalInput('noon')).toBeNull();
  });
});

describe('rangeFromInputs', () => {
  const from = toLocalInput('2026-03-04T05:00:00.000Z');
  const until = toLocalInput('2026-03-04T06:00:00.000Z');

  it('answers the range, leaving an empty end open', () => {
    expect(rangeFromInputs(from, until)).toEqual({
      range: { since: '2026-03-04T05:00:00.000Z', until: '2026-03-04T06:00:00.000Z' },
    });
    expect(rangeFromInputs('', until)).toEqual({ range: { since: null, until: '2026-03-04T06:00:00.000Z' } });
    expect(rangeFromInputs('', '')).toEqual({ range: NO_RANGE });
  });

  it('refuses a reversed or empty span and unreadable input', () => {
    expect(rangeFromInputs(until, from)).toEqual({ error: '“From” must be before “Until”' });
    expect(rangeFromInputs(from, from)).toEqual({ error: '“From” must be before “Until”' });
    expect(rangeFromInputs('later', '')).toEqual({ error: '“From” is not a date and time' });
    expect(rangeFromInputs('', 'soon')).toEqual({ error: '“Until” is not a date and time' });
  });
});

describe('rangeFromSelection', () => {
  it('orders the ends and widens them to whole seconds', () => {
    const lo = Date.parse('2026-03-04T05:00:00.000Z') / 1000;
    expect(rangeFromSelection(lo + 60.4, lo + 0.6)).toEqual({
      since: '2026-03-04T05:00:00.000Z',
      until: '2026-03-04T05:01:01.000Z',
    });
  });

  it('answers null for a click (no width) or nonsense', () => {
    expect(rangeFromSelection(100, 100)).toBeNull();
    expect(rangeFromSelection(Number.NaN, 5)).toBeNull();
  });
});

describe('describeRange', () => {
  it('names presets, instants and open ends', () => {
    expect(describeRange(NO_RANGE, fmt)).toBe('All events');
    expect(describeRange({ since: '24h', until: null }, fmt)).toBe('Events of the last 24 hours');
    expect(describeRange({ since: '90m', until: null }, fmt)).toBe('Events of the last 90m');
    expect(describeRange({ since: 'A', until: 'B' }, fmt)).toBe('<A> – <B>');
    expect(describeRange({ since: 'A', until: null }, fmt)).toBe('From <A> to now');
    expect(describeRange({ since: null, until: 'B' }, fmt)).toBe('Up to <B>');
    expect(describeRange({ since: '1h', until: 'B' }, fmt)).toBe('the last hour, until <B>');
  });

  it('on a snapshot says that durations count back from when it was taken, and instants stay', () => {
    const taken = '2026-03-01T12:00:00Z';
    expect(describeRange({ since: '1h', until: null }, fmt, taken)).toBe(
      'Events of the last hour before the snapshot',
    );
    expect(describeRange({ since: '90m', until: null }, fmt, taken)).toBe(
      'Events of the last 90m before the snapshot',
    );
    expect(describeRange({ since: 'A', until: null }, fmt, taken)).toBe('From <A> to the snapshot');
    expect(describeRange({ since: 'A', until: 'B' }, fmt, taken)).toBe('<A> – <B>');
    expect(describeRange(NO_RANGE, fmt, taken)).toBe('All events');
  });
});
