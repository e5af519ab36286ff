import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { attachment, negotiate } from './stream';

// The media types the contract's streaming operations produce, default first.
const LOGS = ['text/plain', 'application/x-ndjson'];
const ACTIVITY = ['text/csv', 'application/json'];
const SNAPSHOT = ['application/vnd.skiff.snapshot+sqlite'];

function refusal(accept: string, produces: readonly string[]): ProblemError {
  try {
    negotiate(accept, produces);
  } catch (e) {
    if (e instanceof ProblemError) return e;
    throw e;
  }
  throw new Error(`negotiate(${JSON.stringify(accept)}) answered instead of refusing`);
}

describe('negotiate', () => {
  it('a blank Accept counts as absent and gets the default type', () => {
    expect(negotiate('', LOGS)).toBe('text/plain');
    expect(negotiate('   ', LOGS)).toBe('text/plain');
    expect(negotiate(' \t ', ACTIVITY)).toBe('text/csv');
  });

  it('media-type parameters other than q leave a range its full weight', () => {
    expect(negotiate('application/x-ndjson;charset=utf-8', LOGS)).toBe('application/x-ndjson');
    expect(negotiate('text/plain;q=0.5, application/x-ndjson; charset=utf-8 ;q=0.8', LOGS)).toBe(
      'application/x-ndjson',
    );
  });

  it('of several ranges that name a type equally closely, the highest q is its weight', () => {
    const accept = (first: number, last: number) =>
      `text/plain;charset=ascii;q=${first}, application/x-ndjson;q=0.5, text/plain;charset=utf-8;q=${last}`;
    expect(negotiate(accept(0.1, 0.9), LOGS)).toBe('text/plain');
    expect(negotiate(accept(0.9, 0.1), LOGS)).toBe('text/plain');
    expect(negotiate(accept(0.2, 0.3), LOGS)).toBe('application/x-ndjson');
    expect(negotiate('*/*;q=0.1, text/*;q=0.2, application/json;q=0.5, text/*;q=0.9', ACTIVITY)).toBe(
      'text/csv',
    );
  });

  it('the most specific range naming a type sets its weight, so q=0 refuses it beside a wildcard', () => {
    expect(negotiate('text/plain;q=0, */*', LOGS)).toBe('application/x-ndjson');
    expect(negotiate('*/*;q=0.9, text/*;q=0.1', LOGS)).toBe('application/x-ndjson');
    expect(negotiate('text/*;q=0.1, text/csv;q=0.8, */*;q=0.5', ACTIVITY)).toBe('text/csv');
    const e = refusal('application/*;q=0, */*', SNAPSHOT);
    expect(e.status).toBe(406);
    expect(e.extensions).toEqual({ accepted: SNAPSHOT });
  });

  it('a range whose q is not a number from 0 up is ignored', () => {
    expect(negotiate('text/plain;q=high, */*;q=0.5', LOGS)).toBe('text/plain');
    expect(negotiate('text/plain;q=-1, application/x-ndjson;q=0.3, */*;q=0.5', LOGS)).toBe('text/plain');
    expect(refusal('text/plain;q=x', LOGS).status).toBe(406);
  });

  it('a wildcard range covers only its own top-level type', () => {
    expect(refusal('audio/*', SNAPSHOT).status).toBe(406);
    expect(negotiate('audio/*, application/*;q=0.2', SNAPSHOT)).toBe(SNAPSHOT[0]);
  });

  it('a type that merely extends the name of a produced type does not match it', () => {
    const e = refusal('application/jsonl', ACTIVITY);
    expect(e.status).toBe(406);
    expect(e.code).toBe('not_acceptable');
    expect(refusal('text/plainx, text/csvx', [...LOGS, ...ACTIVITY]).status).toBe(406);
  });
});

describe('attachment', () => {
  it('a plain ASCII file name is sent quoted as it is, with no UTF-8 form', () => {
    expect(attachment('cluster-a 2026-11-24.skiff')).toBe(
      'attachment; filename="cluster-a 2026-11-24.skiff"',
    );
  });

  it('a name outside printable ASCII gets an underscored fallback and the exact name as UTF-8', () => {
    expect(attachment('prod-é€.skiff')).toBe(
      `attachment; filename="prod-__.skiff"; filename*=UTF-8''prod-%C3%A9%E2%82%AC.skiff`,
    );
    expect(attachment('tab\there')).toBe(`attachment; filename="tab_here"; filename*=UTF-8''tab%09here`);
  });

  it('quotes and backslashes cannot break out of the quoted name', () => {
    expect(attachment('a"b\\c.skiff')).toBe(
      `attachment; filename="a_b_c.skiff"; filename*=UTF-8''a%22b%5Cc.skiff`,
    );
  });
});
