import { describe, expect, it } from 'vitest';
import { isProblem } from './problem';

/** Clients tell a problem+json body from any other answer before showing its title and code. */
describe('recognising a problem body', () => {
  const body = {
    type: 'https://skiff.dev/problems/conflict',
    title: 'Conflict',
    status: 409,
    detail: '',
    code: 'conflict',
  };

  it('an object with a text code, a numeric status and a text title is a problem', () => {
    expect(isProblem(body)).toBe(true);
    // Only these three are checked; type and detail may be missing.
    expect(isProblem({ code: 'cluster_error', status: 502, title: 'Bad gateway' })).toBe(true);
  });

  it('each of code, status and title must be there with its type', () => {
    const { code: _c, ...noCode } = body;
    const { status: _s, ...noStatus } = body;
    const { title: _t, ...noTitle } = body;
    for (const bad of [
      noCode,
      noStatus,
      noTitle,
      { ...body, code: 409 },
      { ...body, status: '409' },
      { ...body, title: null },
    ]) {
      expect(isProblem(bad)).toBe(false);
    }
  });

  it('null, text, numbers and nothing are no problem', () => {
    for (const value of [null, undefined, 'Conflict', 409, true]) expect(isProblem(value)).toBe(false);
  });
});
