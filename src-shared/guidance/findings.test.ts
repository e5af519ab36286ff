import { describe, expect, it } from 'vitest';
import { conditionsOf, explained, finding } from './findings';
import { requireGuidance } from './registry';

const entry = requireGuidance('pvc-status', 'Pending');

describe('finding and explained', () => {
  it('a finding with an entry takes its severity; without one, the fallback, and no guidance key', () => {
    expect(finding('status', 'Pending', entry, 'error', { message: 'm' })).toStrictEqual({
      source: 'status',
      reason: 'Pending',
      message: 'm',
      severity: entry.severity,
      guidance: entry,
    });
    expect(finding('event', 'Odd', undefined, 'info')).toStrictEqual({
      source: 'event',
      reason: 'Odd',
      severity: 'info',
    });
  });

  it('an explained finding always carries its entry and its severity', () => {
    expect(explained('status', 'Pending', entry)).toStrictEqual({
      source: 'status',
      reason: 'Pending',
      severity: entry.severity,
      guidance: entry,
    });
    expect(explained('status', 'Pending', entry, { checks: [] }).checks).toEqual([]);
  });
});

describe('conditionsOf', () => {
  it('keeps only objects with a string type and status', () => {
    const good = { type: 'Ready', status: 'False', reason: 'R' };
    const status = {
      conditions: [
        null,
        'Ready',
        7,
        good,
        { type: 'Ready' },
        { status: 'False' },
        { type: 1, status: 'False' },
        { type: 'Ready', status: false },
      ],
    };
    expect(conditionsOf({ status })).toEqual([good]);
  });

  it('an object without conditions, or whose conditions are no list, has none', () => {
    expect(conditionsOf({})).toEqual([]);
    expect(conditionsOf({ status: null })).toEqual([]);
    expect(conditionsOf({ status: { conditions: { type: 'Ready', status: 'False' } } })).toEqual([]);
  });
});
