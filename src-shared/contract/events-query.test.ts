import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { eventsQuery } from './events-query';
import { DURATION_RANGE, INSTANT_RANGE, MAX_DURATION_MS, MAX_INSTANT_MS, MIN_INSTANT_MS } from './time-range';

const query = z.strictObject(eventsQuery);
const q = (raw: Record<string, string>) => query.parse(raw);

function refusal(raw: Record<string, string>) {
  const result = query.safeParse(raw);
  expect(result.success).toBe(false);
  return result.error!.issues[0]!;
}

describe('since and until', () => {
  it('a duration counts back by its unit', () => {
    expect(q({ since: '30s' }).since).toEqual({ durationMs: 30_000 });
    expect(q({ since: '15m' }).since).toEqual({ durationMs: 900_000 });
    expect(q({ until: '2h' }).until).toEqual({ durationMs: 7_200_000 });
    expect(q({ until: '7d' }).until).toEqual({ durationMs: 7 * 86_400_000 });
  });

  it('an ISO 8601 date, with or without seconds, fraction and zone, is an instant', () => {
    expect(q({ since: '2026-01-31' }).since).toEqual({ instant: Date.UTC(2026, 0, 31) });
    expect(q({ since: '2026-01-31T12:00Z' }).since).toEqual({ instant: Date.UTC(2026, 0, 31, 12) });
    expect(q({ since: '2026-01-31T12:00:00Z' }).since).toEqual({ instant: Date.UTC(2026, 0, 31, 12) });
    expect(q({ until: '2026-01-31T12:00:00.250+02:00' }).until).toEqual({
      instant: Date.UTC(2026, 0, 31, 10, 0, 0, 250),
    });
    expect(q({ until: '2026-01-31T12:00:00-0530' }).until).toEqual({
      instant: Date.UTC(2026, 0, 31, 17, 30),
    });
  });

  it('text that only Date.parse would read is refused, naming the parameter', () => {
    // All of these parse with Date.parse, none is ISO 8601.
    for (const [name, bad] of [
      ['since', 'January 31, 2026'],
      ['since', 'on 2026-01-31'],
      ['until', '2026-01-31 12:00'],
      ['until', '2026-01-31T12:00:00 +02:00'],
    ] as const) {
      const issue = refusal({ [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.path).toEqual([name]);
      expect(issue.message).toContain(name);
    }
  });

  it('an ISO-shaped date that does not exist is refused', () => {
    const issue = refusal({ since: '2026-13-45' });
    expect(issue.code).toBe('custom');
    expect(issue.message).toContain('since');
  });

  it('a duration of at most 36500d is accepted; one longer, in any unit, is refused with the range', () => {
    expect(q({ since: '36500d' }).since).toEqual({ durationMs: MAX_DURATION_MS });
    expect(q({ until: `${MAX_DURATION_MS / 1000}s` }).until).toEqual({ durationMs: MAX_DURATION_MS });
    for (const [name, bad] of [
      ['since', '36501d'],
      ['until', `${MAX_DURATION_MS / 1000 + 1}s`],
      ['since', '99999999999d'],
      ['until', '999999999999999s'],
      ['since', `${'9'.repeat(400)}m`],
    ] as const) {
      const issue = refusal({ [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.path).toEqual([name]);
      expect(issue.message).toBe(`${name} must be a duration of ${DURATION_RANGE}`);
    }
  });

  it('an instant from 0000-01-01 to 9999-12-31 is accepted; a zone that moves it past either end is refused', () => {
    expect(q({ since: '0000-01-01' }).since).toEqual({ instant: MIN_INSTANT_MS });
    expect(q({ until: '9999-12-31T23:59:59.999Z' }).until).toEqual({ instant: MAX_INSTANT_MS });
    for (const [name, bad] of [
      ['since', '0000-01-01T00:00:00.000+00:01'],
      ['until', '9999-12-31T23:59:59.999-00:01'],
    ] as const) {
      const issue = refusal({ [name]: bad });
      expect(issue.path).toEqual([name]);
      expect(issue.message).toBe(`${name} must be an instant ${INSTANT_RANGE}`);
    }
  });

  it('a zone offset needs two-digit hours and minutes', () => {
    for (const bad of ['2026-01-31T12:00:00+2:00', '2026-01-31T12:00:00+02:0', '2026-01-31T12:00:00+ab:cd']) {
      expect(query.safeParse({ since: bad }).success).toBe(false);
    }
  });
});

describe('type', () => {
  it('NORMAL and WARNING are accepted in any case and given in upper case', () => {
    expect(q({ type: 'normal' }).type).toBe('NORMAL');
    expect(q({ type: 'Warning' }).type).toBe('WARNING');
    expect(q({}).type).toBeUndefined();
  });

  it('any other type is refused, naming the parameter', () => {
    const issue = refusal({ type: 'error' });
    expect(issue.code).toBe('custom');
    expect(issue.path).toEqual(['type']);
    expect(issue.message).toContain('type');
  });
});

describe('other filters', () => {
  it('a kind is a Kubernetes kind name, includeExpired a boolean', () => {
    expect(q({ kind: 'Pod', includeExpired: 'true' })).toMatchObject({ kind: 'Pod', includeExpired: true });
    expect(query.safeParse({ kind: 'pod/x' }).success).toBe(false);
    expect(query.safeParse({ includeExpired: 'yes' }).success).toBe(false);
  });
});
