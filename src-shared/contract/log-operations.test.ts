import { describe, expect, it } from 'vitest';
import type { z } from 'zod';
import { MAX_CONTEXT, MAX_PATTERN_LENGTH } from '../logs/index';
import { LOG_RESOURCE_TYPES } from './log-models';
import { logOperations, logQuery, MAX_TAIL_LINES } from './log-operations';
import { DURATION_RANGE, INSTANT_RANGE, MAX_DURATION_MS, MAX_INSTANT_MS, MIN_INSTANT_MS } from './time-range';

/** The first issue of a refused value: the invoker turns it into the 400 (src-main/service/invoke.ts). */
function refusal(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  return { issue, params: (issue as { params?: Record<string, unknown> }).params ?? {} };
}

const q = (query: Record<string, string>) => logQuery.parse(query);

describe('log time parameters', () => {
  it('an empty since or until means no bound', () => {
    expect(q({ since: '', until: '' })).toEqual({});
  });

  it('a duration is kept unresolved, its parts added up', () => {
    expect(q({ since: '90s' }).since).toEqual({ durationMs: 90_000 });
    expect(q({ since: '1h30m' }).since).toEqual({ durationMs: 5_400_000 });
    expect(q({ until: '2d250ms' }).until).toEqual({ durationMs: 2 * 86_400_000 + 250 });
  });

  it('an RFC 3339 time or an epoch value is an instant', () => {
    expect(q({ since: '2026-11-22T10:00:00Z' }).since).toEqual({ instant: Date.UTC(2026, 10, 22, 10) });
    expect(q({ until: '1700000000' }).until).toEqual({ instant: 1_700_000_000_000 });
  });

  it('a duration adding up to at most 36500d is accepted; one longer, in any unit, is refused with the range', () => {
    expect(q({ since: '36500d' }).since).toEqual({ durationMs: MAX_DURATION_MS });
    expect(q({ since: '36499d23h59m59s1000ms' }).since).toEqual({ durationMs: MAX_DURATION_MS });
    for (const [name, bad] of [
      ['since', '36500d1ms'],
      ['until', '36499d24h1ms'],
      ['since', '99999999999d'],
      ['until', '999999999999999s'],
      ['since', '9007199254740993ms'],
      ['until', `${'9'.repeat(400)}h`],
    ] as const) {
      const { issue } = refusal(logQuery, { [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.path).toEqual([name]);
      expect(issue.message).toBe(`${name} must be a duration of ${DURATION_RANGE}`);
    }
  });

  it('an instant, however written, is accepted up to 9999-12-31T23:59:59.999Z and refused past it', () => {
    expect(q({ until: '9999-12-31T23:59:59.999Z' }).until).toEqual({ instant: MAX_INSTANT_MS });
    expect(q({ until: '0000-01-01T00:00:00Z' }).until).toEqual({ instant: MIN_INSTANT_MS });
    // An epoch number's unit is read from its size (s, ms, µs, ns), so any number of digits is read.
    expect(q({ since: '99999999999999' }).since).toEqual({ instant: 99_999_999_999_999 });
    expect(q({ since: '1700000000000000000' }).since).toEqual({ instant: 1_700_000_000_000 });
    for (const [name, bad] of [
      ['until', '9999-12-31T23:59:59.999-00:01'],
      ['since', '0000-01-01T00:00:00+00:01'],
      ['since', '1'.repeat(26)],
      ['until', '253402300800000000000'],
      ['since', '1e300'],
    ] as const) {
      const { issue } = refusal(logQuery, { [name]: bad });
      expect(issue.path).toEqual([name]);
      expect(issue.message).toBe(`${name} must be an instant ${INSTANT_RANGE}`);
    }
  });

  it('anything else is refused, naming the parameter', () => {
    for (const [name, bad] of [
      ['since', 'yesterday'],
      ['until', '15 minutes'],
      ['since', '2026-11-22 noon'],
    ] as const) {
      const { issue } = refusal(logQuery, { [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.path).toEqual([name]);
      // What is no time at all is told the forms, not the range.
      expect(issue.message).toMatch(new RegExp(`^${name} must be an RFC 3339 time with a zone`));
    }
  });
});

describe('tailLines and context', () => {
  it('an empty value means no limit, 0 and the maximum are accepted', () => {
    expect(q({ tailLines: '', context: '' })).toEqual({});
    expect(q({ tailLines: '0', context: '0' })).toEqual({ tailLines: 0, context: 0 });
    expect(q({ tailLines: String(MAX_TAIL_LINES), context: String(MAX_CONTEXT) })).toEqual({
      tailLines: MAX_TAIL_LINES,
      context: MAX_CONTEXT,
    });
  });

  it('a value past the maximum or not plain digits is refused, naming the parameter and its range', () => {
    for (const [name, bad, max] of [
      ['tailLines', String(MAX_TAIL_LINES + 1), MAX_TAIL_LINES],
      ['context', String(MAX_CONTEXT + 1), MAX_CONTEXT],
      ['tailLines', '10x', MAX_TAIL_LINES],
      ['context', '-1', MAX_CONTEXT],
    ] as const) {
      const { issue } = refusal(logQuery, { [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.message).toContain(name);
      expect(issue.message).toContain(`0 to ${max}`);
    }
  });
});

describe('level', () => {
  it('an empty or blank level shows everything', () => {
    expect(q({ level: '' }).level).toBeUndefined();
    expect(q({ level: '  ' }).level).toBeUndefined();
  });

  it('named levels are shown with lines that have none, in any case and spacing', () => {
    expect(q({ level: ' error , Warn' }).level).toEqual({
      ERROR: true,
      WARN: true,
      INFO: false,
      DEBUG: false,
      TRACE: false,
      UNKNOWN: true,
    });
  });

  it('-LEVEL or !LEVEL hides one, and UNKNOWN can be hidden too', () => {
    expect(q({ level: '-debug,!TRACE' }).level).toEqual({
      ERROR: true,
      WARN: true,
      INFO: true,
      DEBUG: false,
      TRACE: false,
      UNKNOWN: true,
    });
    expect(q({ level: 'ERROR,-UNKNOWN' }).level).toMatchObject({ ERROR: true, UNKNOWN: false, WARN: false });
  });

  it('an unknown level is refused, naming it and the levels there are', () => {
    const { issue } = refusal(logQuery, { level: 'ERROR, verbose ' });
    expect(issue.code).toBe('custom');
    expect(issue.message).toContain('"verbose"');
    expect(issue.message).toContain('ERROR, WARN, INFO, DEBUG, TRACE, UNKNOWN');
  });
});

describe('search', () => {
  it('an empty search is no search; a regular expression is kept as written', () => {
    expect(q({ search: '' }).search).toBeUndefined();
    expect(q({ search: 'time(out|d out)' }).search).toBe('time(out|d out)');
  });

  it('a search up to the maximum length is accepted, a longer one refused', () => {
    const longest = 'a'.repeat(MAX_PATTERN_LENGTH);
    expect(q({ search: longest }).search).toBe(longest);
    const { issue } = refusal(logQuery, { search: `${longest}a` });
    expect(issue.code).toBe('custom');
    expect(issue.message).toContain('search');
    expect(issue.message).toContain(String(MAX_PATTERN_LENGTH));
  });

  it('a search that is no valid regular expression is refused', () => {
    const { issue } = refusal(logQuery, { search: 'time(out' });
    expect(issue.code).toBe('custom');
    expect(issue.path).toEqual(['search']);
    expect(issue.message).toMatch(/^search: \S/);
  });
});

describe('log resource types', () => {
  const params = logOperations.getLogs.params;
  const path = (resourceType: string) => ({
    workspaceId: 'ws',
    clusterId: 'c1',
    namespace: 'shop',
    resourceType,
    resourceName: 'web',
  });

  it('a pod or a workload with pods has logs, in any case', () => {
    expect(params.parse(path('Deployment')).resourceType.singular).toBe('deployment');
    expect(params.parse(path('pod')).resourceType.singular).toBe('pod');
  });

  it('a kind without logs is refused as invalid_resource_type, naming the kind and the accepted ones', () => {
    const { issue, params: extra } = refusal(params, path('service'));
    expect(issue.code).toBe('custom');
    expect(extra.problemCode).toBe('invalid_resource_type');
    expect(extra.accepted).toEqual(LOG_RESOURCE_TYPES);
    expect(extra).not.toHaveProperty('hint');
    expect(issue.message).toContain('service');
    expect(issue.message.endsWith(LOG_RESOURCE_TYPES.join(', '))).toBe(true);
  });

  it('an unknown kind is refused with a hint when it looks like a known one', () => {
    const { issue, params: extra } = refusal(params, path('deployments'));
    expect(extra.problemCode).toBe('invalid_resource_type');
    expect(extra.hint).toBe('did you mean deployment?');
    expect(issue.message).toContain('"deployments"');
    expect(issue.message).toContain('(did you mean deployment?)');
  });
});
