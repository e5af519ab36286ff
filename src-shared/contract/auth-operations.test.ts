import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { ACTIVITY_TYPES } from './auth-models';
import {
  activityFilterQuery,
  authOperations,
  MAX_PASSWORD_LENGTH,
  MIN_PASSWORD_LENGTH,
  USERNAME_PATTERN,
} from './auth-operations';
import { INSTANT_RANGE, MAX_INSTANT_MS, MIN_INSTANT_MS } from './time-range';

/** The first issue of a refused value: the invoker turns it into the 400 (src-main/service/invoke.ts). */
function refusal(schema: z.ZodType, value: unknown) {
  const result = schema.safeParse(value);
  expect(result.success).toBe(false);
  return result.error!.issues[0]!;
}

const filters = z.strictObject(activityFilterQuery);

describe('activity time filters', () => {
  it('no value or an empty one is no bound', () => {
    expect(filters.parse({})).toEqual({});
    expect(filters.parse({ since: '', until: '' })).toEqual({});
  });

  it('an RFC 3339 time with a zone is read as epoch milliseconds', () => {
    expect(filters.parse({ since: '2026-03-01T09:00:00Z' }).since).toBe(Date.UTC(2026, 2, 1, 9));
    expect(filters.parse({ until: '2026-03-01T09:00Z' }).until).toBe(Date.UTC(2026, 2, 1, 9));
    expect(filters.parse({ since: '2026-03-01t09:00:00.125z' }).since).toBe(
      Date.UTC(2026, 2, 1, 9, 0, 0, 125),
    );
    expect(filters.parse({ until: '2026-03-01T09:00:00+01:30' }).until).toBe(Date.UTC(2026, 2, 1, 7, 30));
    expect(filters.parse({ until: '2026-03-01T09:00:00-02:00' }).until).toBe(Date.UTC(2026, 2, 1, 11));
  });

  it('a time without a zone, a bare date or other text is refused, naming the parameter', () => {
    for (const [name, bad] of [
      ['since', '2026-03-01T09:00:00'],
      ['since', '2026-03-01'],
      ['until', '2026-03-01T09:00:00+0100'],
      ['until', 'March 1, 2026 09:00 UTC'],
      ['since', 'x2026-03-01T09:00:00Z'],
      ['since', '2026-03-01T09:00:00Zx'],
      ['until', '2026-3-1T9:00:00Z'],
      ['until', '2026-03-01 09:00:00Z'],
      ['since', '1700000000'],
    ] as const) {
      const issue = refusal(filters, { [name]: bad });
      expect(issue.code).toBe('custom');
      expect(issue.path).toEqual([name]);
      expect(issue.message).toContain(name);
    }
  });

  it('an RFC 3339-shaped time that does not exist is refused', () => {
    expect(refusal(filters, { since: '2026-02-30T25:61:00Z' }).path).toEqual(['since']);
  });

  it('the years 0000 to 9999 are accepted to their ends; a zone that moves a time past them is refused', () => {
    expect(filters.parse({ since: '0000-01-01T00:00:00Z' }).since).toBe(MIN_INSTANT_MS);
    expect(filters.parse({ until: '9999-12-31T23:59:59.999Z' }).until).toBe(MAX_INSTANT_MS);
    for (const [name, bad] of [
      ['since', '0000-01-01T00:00:00+00:01'],
      ['until', '9999-12-31T23:59:59.999-00:01'],
    ] as const) {
      const issue = refusal(filters, { [name]: bad });
      expect(issue.path).toEqual([name]);
      expect(issue.message).toBe(`${name} must be an instant ${INSTANT_RANGE}`);
    }
  });
});

describe('activity type filter', () => {
  it('a blank type is no filter', () => {
    expect(filters.parse({ type: '' }).type).toBeUndefined();
    expect(filters.parse({ type: ' ' }).type).toBeUndefined();
  });

  it('types are comma-separated, spaces around them ignored, each kept once', () => {
    expect(filters.parse({ type: ' logout, login ,logout' }).type).toEqual(['logout', 'login']);
    expect(filters.parse({ type: ACTIVITY_TYPES.join(',') }).type).toEqual([...ACTIVITY_TYPES]);
  });

  it('an unknown type is refused, naming it and the accepted ones', () => {
    const issue = refusal(filters, { type: 'login,signup,LOGOUT' });
    expect(issue.code).toBe('custom');
    expect(issue.path).toEqual(['type']);
    expect(issue.message).toContain('"signup"');
    expect(issue.message).not.toContain('LOGOUT');
    const words = issue.message.split(/[\s,;:"]+/);
    for (const t of ACTIVITY_TYPES) expect(words).toContain(t);
  });
});

describe('JSON bodies', () => {
  const login = authOperations.login.body;

  it('a missing body is refused as a required JSON body, with an example', () => {
    const issue = refusal(login, undefined);
    expect(issue.message).toContain('JSON body');
    expect(issue.message).toContain('"username"');
  });

  it('a refresh takes no body, or one without a token (the cookie carries it), but no empty token', () => {
    const refresh = authOperations.refresh.body;
    expect(refresh.safeParse(undefined).success).toBe(true);
    expect(refresh.safeParse({}).success).toBe(true);
    expect(refusal(refresh, { refreshToken: '' }).path).toEqual(['refreshToken']);
    expect(refusal(refresh, { refreshToken: 'x', cookie: 'y' }).code).toBe('unrecognized_keys');
  });

  it('a body that is there but wrong is refused for what is wrong, not as missing', () => {
    expect(refusal(login, null).message).not.toContain('required');
    expect(refusal(login, { username: 'maria', password: 'secret', extra: 1 }).code).toBe(
      'unrecognized_keys',
    );
    const missing = refusal(login, { username: 'maria' });
    expect(missing.path).toEqual(['password']);
    expect(missing.message).not.toContain('JSON body');
  });

  it('a POST that takes nothing accepts no body and an empty object only', () => {
    const body = authOperations.logoutSession.body;
    expect(body.safeParse(undefined).success).toBe(true);
    expect(body.safeParse({}).success).toBe(true);
    expect(body.safeParse({ all: true }).success).toBe(false);
  });
});

describe('accounts', () => {
  it('an account update must change something', () => {
    const update = authOperations.updateAccount.body;
    const issue = refusal(update, {});
    expect(issue.message).toContain('role');
    expect(update.parse({ role: 'member' })).toEqual({ role: 'member' });
    expect(update.parse({ workspaces: [] })).toEqual({ workspaces: [] });
  });

  it('a username is 1 to 63 lower-case letters, digits, ".", "_" or "-", starting with a letter or digit', () => {
    for (const good of ['a', '7', 'maria.rossi_2-x', 'a'.repeat(63)])
      expect(USERNAME_PATTERN.test(good)).toBe(true);
    for (const bad of ['', 'Maria', '-maria', '.x', 'a'.repeat(64), 'ma ria', 'x@y']) {
      expect(USERNAME_PATTERN.test(bad)).toBe(false);
    }
    const create = authOperations.createAccount.body;
    expect(refusal(create, { username: 'Maria', password: 'long enough' }).path).toEqual(['username']);
  });

  it('a new password has between the minimum and the maximum length', () => {
    const create = authOperations.createAccount.body;
    const ok = (password: string) => create.safeParse({ username: 'maria', password }).success;
    expect(ok('x'.repeat(MIN_PASSWORD_LENGTH))).toBe(true);
    expect(ok('x'.repeat(MAX_PASSWORD_LENGTH))).toBe(true);
    expect(ok('x'.repeat(MIN_PASSWORD_LENGTH - 1))).toBe(false);
    expect(ok('x'.repeat(MAX_PASSWORD_LENGTH + 1))).toBe(false);
  });
});
