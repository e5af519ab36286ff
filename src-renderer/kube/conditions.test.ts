import { describe, expect, it } from 'vitest';
import type { KubeObject } from '../../src-shared/contract/models';
import { conditionSummary, conditionsOf } from './conditions';

/** Status from conditions for any kind: Ready first, then Available; nothing guessed without them. */

const obj = (conditions: unknown): KubeObject => ({
  metadata: { name: 'x' },
  ...(conditions === undefined ? {} : { status: { conditions } }),
});

describe('conditionSummary', () => {
  it('reads Ready before Available', () => {
    const o = obj([
      { type: 'Available', status: 'False' },
      { type: 'Ready', status: 'True' },
    ]);
    expect(conditionSummary(o)).toEqual({ type: 'Ready', status: 'True', text: 'Ready', tone: 'ok' });
  });

  it('falls back to Available, in its own words', () => {
    expect(conditionSummary(obj([{ type: 'Available', status: 'True' }]))).toMatchObject({
      type: 'Available',
      text: 'Available',
      tone: 'ok',
    });
    expect(conditionSummary(obj([{ type: 'Available', status: 'False' }]))).toEqual({
      type: 'Available',
      status: 'False',
      text: 'Unavailable',
      tone: 'bad',
    });
  });

  it('names the reason of a False condition and keeps its message', () => {
    expect(
      conditionSummary(
        obj([{ type: 'Ready', status: 'False', reason: 'DoesNotExist', message: 'Secret does not exist' }]),
      ),
    ).toEqual({
      type: 'Ready',
      status: 'False',
      text: 'Not ready (DoesNotExist)',
      tone: 'bad',
      reason: 'DoesNotExist',
      message: 'Secret does not exist',
    });
    expect(conditionSummary(obj([{ type: 'Ready', status: 'False', reason: '', message: '' }]))).toEqual({
      type: 'Ready',
      status: 'False',
      text: 'Not ready',
      tone: 'bad',
    });
    expect(conditionSummary(obj([{ type: 'Ready', status: 'False', reason: 7, message: {} }]))).toEqual({
      type: 'Ready',
      status: 'False',
      text: 'Not ready',
      tone: 'bad',
    });
    expect(conditionSummary(obj([{ type: 'Ready', status: 'True', message: 'fine' }]))).toEqual({
      type: 'Ready',
      status: 'True',
      text: 'Ready',
      tone: 'ok',
      message: 'fine',
    });
  });

  it('says Unknown (or any other status) as a warning', () => {
    expect(conditionSummary(obj([{ type: 'Ready', status: 'Unknown', reason: 'Pending' }]))).toEqual({
      type: 'Ready',
      status: 'Unknown',
      text: 'Ready: Unknown',
      tone: 'warn',
      reason: 'Pending',
    });
  });

  it('has nothing to say without a Ready or Available condition', () => {
    expect(conditionSummary(obj(undefined))).toBeUndefined();
    expect(conditionSummary(obj([]))).toBeUndefined();
    expect(conditionSummary(obj([{ type: 'Progressing', status: 'True' }]))).toBeUndefined();
    expect(conditionSummary(obj('Ready'))).toBeUndefined();
  });
});

describe('conditionsOf', () => {
  it('keeps only well-formed conditions', () => {
    const good = { type: 'Ready', status: 'True' };
    expect(
      conditionsOf(
        obj([good, null, 'Ready', { type: 'Ready' }, { status: 'True' }, { type: 1, status: 'x' }]),
      ),
    ).toEqual([good]);
    expect(conditionsOf(obj({ type: 'Ready', status: 'True' }))).toEqual([]);
  });
});
