import { describe, expect, it } from 'vitest';
import { MAX_LOG_CREDIT, parseDown, parseOpen, parseUp } from './log-stream';

/**
 * The log stream's messages come from the other, less trusted, side of the IPC boundary: each is
 * read by one of these parsers, which accept exactly the protocol's shapes and refuse (null)
 * everything else, without throwing.
 */

const OPEN = { params: { namespace: 'shop', resourceName: 'p' }, query: { follow: 'true' }, credit: 4 };

/** A function is not an object message, even when it carries every field one would have. */
const functionWith = (fields: object) => Object.assign(() => {}, fields);

describe('the open request', () => {
  it('a request with string params, string query and a credit in range is accepted as it is', () => {
    expect(parseOpen(OPEN)).toEqual(OPEN);
  });

  it('empty params and query are accepted', () => {
    expect(parseOpen({ params: {}, query: {}, credit: 1 })).toEqual({ params: {}, query: {}, credit: 1 });
  });

  it('fields beyond params, query and credit are dropped', () => {
    expect(parseOpen({ ...OPEN, port: 'x', extra: { a: 1 } })).toEqual(OPEN);
  });

  it('anything that is not an object is refused, also when it carries the fields', () => {
    for (const v of [null, undefined, 'open', 4, true, functionWith(OPEN)]) expect(parseOpen(v)).toBeNull();
  });

  it('params must be a record of strings', () => {
    for (const params of [
      undefined,
      null,
      'namespace=shop',
      ['shop'],
      { namespace: 'shop', tailLines: 10 },
      { namespace: 1, resourceName: 'p' },
    ])
      expect(parseOpen({ ...OPEN, params })).toBeNull();
  });

  it('the query must be a record of strings', () => {
    for (const query of [
      undefined,
      null,
      'follow=true',
      ['true'],
      { follow: 'true', tailLines: 10 },
      { follow: true },
    ])
      expect(parseOpen({ ...OPEN, query })).toBeNull();
  });

  it('the first credit is a whole number from 1 to the most credit main may hold', () => {
    expect(parseOpen({ ...OPEN, credit: 1 })?.credit).toBe(1);
    expect(parseOpen({ ...OPEN, credit: MAX_LOG_CREDIT })?.credit).toBe(MAX_LOG_CREDIT);
    for (const credit of [
      0,
      -1,
      MAX_LOG_CREDIT + 1,
      2.5,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '4',
      undefined,
    ])
      expect(parseOpen({ ...OPEN, credit })).toBeNull();
  });
});

describe('messages from the renderer', () => {
  it('a cancel is read as a cancel, whatever else it carries', () => {
    expect(parseUp({ type: 'cancel' })).toEqual({ type: 'cancel' });
    expect(parseUp({ type: 'cancel', n: 3, reason: 'closed' })).toEqual({ type: 'cancel' });
  });

  it('a credit grant is a whole number from 1 to the most credit main may hold', () => {
    expect(parseUp({ type: 'credit', n: 1 })).toEqual({ type: 'credit', n: 1 });
    expect(parseUp({ type: 'credit', n: 7, extra: true })).toEqual({ type: 'credit', n: 7 });
    expect(parseUp({ type: 'credit', n: MAX_LOG_CREDIT })).toEqual({ type: 'credit', n: MAX_LOG_CREDIT });
    for (const n of [0, -3, MAX_LOG_CREDIT + 1, 1.5, Number.NaN, '2', undefined])
      expect(parseUp({ type: 'credit', n })).toBeNull();
  });

  it('a message of another type is refused, even with a valid grant in it', () => {
    for (const type of ['grant', 'chunk', 'Credit', undefined]) expect(parseUp({ type, n: 3 })).toBeNull();
  });

  it('anything that is not an object is refused, also when it carries the fields', () => {
    for (const v of [null, undefined, 'cancel', 3, functionWith({ type: 'cancel' })])
      expect(parseUp(v)).toBeNull();
    expect(parseUp(functionWith({ type: 'credit', n: 2 }))).toBeNull();
  });
});

describe('messages from main', () => {
  it('open and end are read by their type alone', () => {
    expect(parseDown({ type: 'open', data: 'x' })).toEqual({ type: 'open' });
    expect(parseDown({ type: 'end', problem: {} })).toEqual({ type: 'end' });
  });

  it('a chunk carries its text, the empty text included', () => {
    expect(parseDown({ type: 'chunk', data: '{"n":1}\n', extra: 1 })).toEqual({
      type: 'chunk',
      data: '{"n":1}\n',
    });
    expect(parseDown({ type: 'chunk', data: '' })).toEqual({ type: 'chunk', data: '' });
  });

  it('a chunk without text is refused', () => {
    for (const data of [undefined, null, 12, { text: 'x' }])
      expect(parseDown({ type: 'chunk', data })).toBeNull();
  });

  it('an error carries its problem object', () => {
    const problem = { status: 400, code: 'log_unavailable', title: 'Bad Request', detail: 'waiting' };
    expect(parseDown({ type: 'error', problem, data: 'x' })).toEqual({ type: 'error', problem });
  });

  it('an error without a problem object is refused', () => {
    for (const problem of [undefined, null, 'log_unavailable', 400])
      expect(parseDown({ type: 'error', problem })).toBeNull();
  });

  it('a message of another type is refused, even with data or a problem in it', () => {
    for (const type of ['credit', 'cancel', 'Chunk', undefined])
      expect(parseDown({ type, data: 'x', problem: { code: 'x' } })).toBeNull();
  });

  it('anything that is not an object is refused, also when it carries the fields', () => {
    for (const v of [null, undefined, 'end', 0, functionWith({ type: 'end' })])
      expect(parseDown(v)).toBeNull();
    expect(parseDown(functionWith({ type: 'chunk', data: 'x' }))).toBeNull();
  });
});
