/**
 * A request's event filters resolved, called directly: durations count back from the instant
 * given, instants stay, kinds compare lower-cased, unset filters stay unset, and the monitoring
 * flags become part of the filter.
 */
import { describe, expect, it } from 'vitest';
import { resolveEventFilter } from './query';

const AS_OF = Date.UTC(2026, 10, 27, 12, 0, 0);
const ALL_ON = { resourceEventsEnabled: true, systemEventsEnabled: true };

describe('resolveEventFilter', () => {
  it('leaves every unset filter out (no key at all) and takes the monitoring flags as they are', () => {
    // Strict: a filter key present but undefined would be a different memo key (history/filter.ts).
    expect(resolveEventFilter({}, AS_OF, ALL_ON)).toStrictEqual({ resourceEvents: true, systemEvents: true });
    expect(
      resolveEventFilter({}, AS_OF, { resourceEventsEnabled: false, systemEventsEnabled: true }),
    ).toEqual({ resourceEvents: false, systemEvents: true });
    expect(
      resolveEventFilter({}, AS_OF, { resourceEventsEnabled: true, systemEventsEnabled: false }),
    ).toEqual({ resourceEvents: true, systemEvents: false });
  });

  it('keeps type, reason, namespace and name as given, and lower-cases the kind', () => {
    const f = resolveEventFilter(
      { type: 'WARNING', reason: 'BackOff', namespace: 'Shop', kind: 'StatefulSet', name: 'Web-0' },
      AS_OF,
      ALL_ON,
    );
    expect(f).toEqual({
      type: 'WARNING',
      reason: 'BackOff',
      namespace: 'Shop',
      kind: 'statefulset',
      name: 'Web-0',
      resourceEvents: true,
      systemEvents: true,
    });
  });

  it('counts a duration back from the instant given, for since and until alike', () => {
    const f = resolveEventFilter(
      { since: { durationMs: 15 * 60_000 }, until: { durationMs: 60_000 } },
      AS_OF,
      ALL_ON,
    );
    expect(f.sinceMs).toBe(AS_OF - 15 * 60_000);
    expect(f.untilMs).toBe(AS_OF - 60_000);
  });

  it('keeps an instant whatever the instant durations count from', () => {
    const since = Date.UTC(2026, 0, 1);
    const until = Date.UTC(2026, 0, 2);
    for (const asOf of [AS_OF, 0]) {
      const f = resolveEventFilter({ since: { instant: since }, until: { instant: until } }, asOf, ALL_ON);
      expect([f.sinceMs, f.untilMs]).toEqual([since, until]);
    }
  });

  it('an instant of 0 is a bound, not an unset one', () => {
    const f = resolveEventFilter({ since: { instant: 0 }, until: { durationMs: 0 } }, AS_OF, ALL_ON);
    expect(f).toHaveProperty('sinceMs', 0);
    expect(f).toHaveProperty('untilMs', AS_OF);
  });
});
