import { describe, expect, it } from 'vitest';
import { DEFAULT_EVENT_HISTORY_MAX, DEFAULT_EVENT_RETENTION_MS } from '../../events/history/options';
import { changesLeaseKey, isNoisyKind, recordsKind, resolveChangeOptions } from './options';

describe('change history options', () => {
  it('defaults: viewed, noisy kinds off, the event history retention and cap, whole every 20', () => {
    expect(resolveChangeOptions()).toEqual({
      record: 'viewed',
      recordNoisyKinds: false,
      retentionMs: DEFAULT_EVENT_RETENTION_MS,
      maxPerCluster: DEFAULT_EVENT_HISTORY_MAX,
      wholeEvery: 20,
      flushMs: 500,
      pruneEveryMs: 60_000,
      leaseRetryMs: 5_000,
    });
  });

  it('keeps what is given', () => {
    const given = {
      record: 'all' as const,
      recordNoisyKinds: true,
      retentionMs: 1,
      maxPerCluster: 2,
      wholeEvery: 3,
      flushMs: 4,
      pruneEveryMs: 5,
      leaseRetryMs: 6,
    };
    expect(resolveChangeOptions(given)).toEqual(given);
  });

  it('Leases, EndpointSlices and Events of either API are noisy; Endpoints and other leases are not', () => {
    expect(isNoisyKind({ group: 'coordination.k8s.io', plural: 'leases' })).toBe(true);
    expect(isNoisyKind({ group: 'discovery.k8s.io', plural: 'endpointslices' })).toBe(true);
    expect(isNoisyKind({ group: '', plural: 'events' })).toBe(true);
    expect(isNoisyKind({ group: 'events.k8s.io', plural: 'events' })).toBe(true);
    expect(isNoisyKind({ group: '', plural: 'endpoints' })).toBe(false);
    expect(isNoisyKind({ group: 'example.com', plural: 'leases' })).toBe(false);
  });

  it('records a kind unless off, or noisy without --record-noisy-kinds', () => {
    const lease = { group: 'coordination.k8s.io', plural: 'leases' };
    const pods = { group: '', plural: 'pods' };
    expect(recordsKind(resolveChangeOptions(), pods)).toBe(true);
    expect(recordsKind(resolveChangeOptions(), lease)).toBe(false);
    expect(recordsKind(resolveChangeOptions({ recordNoisyKinds: true }), lease)).toBe(true);
    expect(recordsKind(resolveChangeOptions({ record: 'off', recordNoisyKinds: true }), pods)).toBe(false);
    expect(recordsKind(resolveChangeOptions({ record: 'off', recordNoisyKinds: true }), lease)).toBe(false);
  });

  it('has a lease key of its own, not the event recorder one', () => {
    expect(changesLeaseKey('c1')).toBe('changes-recorder:c1');
  });
});
