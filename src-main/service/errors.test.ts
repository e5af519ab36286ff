/**
 * ProblemError (errors.ts): the one error operations throw, and the problem+json body every
 * transport makes of it.
 */
import { describe, expect, it } from 'vitest';
import { PROBLEM_TYPE_BASE } from '../../src-shared/contract/problem';
import { ProblemError, problem } from './errors';

describe('ProblemError', () => {
  it("takes its status from the code's table and keeps the detail as its message", () => {
    const err = new ProblemError('payload_too_large', 'the file must be at most 10 bytes');
    expect(err).toBeInstanceOf(Error);
    expect([err.name, err.code, err.status, err.message]).toEqual([
      'ProblemError',
      'payload_too_large',
      413,
      'the file must be at most 10 bytes',
    ]);
    expect([err.extensions, err.headers]).toEqual([{}, {}]);
  });

  it('becomes a problem whose type is the code with every underscore a hyphen, titled by its status', () => {
    expect(new ProblemError('snapshot_version_unsupported', 'too new').toProblem()).toEqual({
      type: `${PROBLEM_TYPE_BASE}snapshot-version-unsupported`,
      title: 'Bad Request',
      status: 400,
      detail: 'too new',
      code: 'snapshot_version_unsupported',
    });
    expect(new ProblemError('method_not_allowed', 'no').toProblem().title).toBe('Method Not Allowed');
    expect(new ProblemError('cluster_timeout', 'slow').toProblem().title).toBe('Gateway Timeout');
  });

  it('titles a status without a title of its own "Error"', () => {
    expect(new ProblemError('snapshot_expired', 'gone').toProblem()).toMatchObject({
      status: 410,
      title: 'Error',
    });
  });

  it('carries its extensions in the problem and its headers beside it', () => {
    const err = new ProblemError(
      'rate_limited',
      'slow down',
      { retryAfterSeconds: 30 },
      { 'Retry-After': '30' },
    );
    expect(err.toProblem()).toMatchObject({ code: 'rate_limited', status: 429, retryAfterSeconds: 30 });
    expect(err.headers).toEqual({ 'Retry-After': '30' });
  });

  it('is what problem() builds, extensions included', () => {
    const err = problem('invalid_name', 'bad name', { field: 'name' });
    expect(err).toBeInstanceOf(ProblemError);
    expect(err.toProblem()).toMatchObject({
      code: 'invalid_name',
      status: 400,
      detail: 'bad name',
      field: 'name',
    });
    expect(problem('conflict', 'taken').extensions).toEqual({});
  });
});
