import { describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { factsOf, type MetaRow, metaOf, snapshotTime, TIME_RANGE } from './facts';
import { SNAPSHOT_SCHEMA_VERSION } from './format';

/**
 * What a snapshot's meta must say (facts.ts), on the rows as the check reads them: no file, no
 * process, every rule and its message.
 */

const GOOD = {
  format: 'skiff-snapshot',
  schemaVersion: '1',
  complete: '1',
  context: 'prod-eu',
  server: 'https://prod-eu.example:6443',
  takenAt: '2026-03-01T12:00:00Z',
  finishedAt: '2026-03-01T12:00:07Z',
  kubernetesVersion: 'v1.31.4',
};

const meta = (changes: Record<string, string | undefined> = {}) => {
  const m = new Map(Object.entries({ ...GOOD, ...changes }));
  for (const [k, v] of Object.entries(changes)) if (v === undefined) m.delete(k);
  return m as Map<string, string>;
};

function thrown(fn: () => unknown): ProblemError {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(ProblemError);
    return err as ProblemError;
  }
  throw new Error('did not throw');
}

const refusedAs = (changes: Record<string, string | undefined>) =>
  thrown(() => factsOf(meta(changes), 'f.skiff'));

describe('snapshotTime', () => {
  it('reads RFC 3339 with or without a fraction, in UTC or with an offset, in either case', () => {
    expect(snapshotTime('2026-03-01T12:00:00Z')).toBe(Date.UTC(2026, 2, 1, 12));
    expect(snapshotTime('2026-03-01t12:00:00.123456789z')).toBe(Date.UTC(2026, 2, 1, 12, 0, 0, 123));
    expect(snapshotTime('2026-03-01T13:30:00+01:30')).toBe(Date.UTC(2026, 2, 1, 12));
    expect(snapshotTime('2026-03-01T10:00:00-02:00')).toBe(Date.UTC(2026, 2, 1, 12));
    expect(snapshotTime('2024-02-29T23:59:59Z')).toBe(Date.UTC(2024, 1, 29, 23, 59, 59));
  });

  it('takes the ends of its range and nothing beyond them', () => {
    expect(snapshotTime('1970-01-01T00:00:00Z')).toBe(TIME_RANGE.from);
    expect(snapshotTime('9999-12-31T23:59:59.999Z')).toBe(TIME_RANGE.to);
    expect(TIME_RANGE).toEqual({ from: 0, to: Date.UTC(9999, 11, 31, 23, 59, 59, 999) });
    for (const outside of [
      '1969-12-31T23:59:59.999Z',
      '1970-01-01T00:30:00+01:00',
      '9999-12-31T23:59:59-00:01',
      '-271821-04-20T00:00:00Z',
      '+275760-09-13T00:00:00Z',
    ])
      expect(snapshotTime(outside), outside).toBeUndefined();
  });

  it('refuses what is not RFC 3339 or names no day or time that exists', () => {
    for (const bad of [
      '',
      'yesterday',
      'March 1 2026',
      '2026-03-01',
      '2026-03-01 12:00:00Z',
      '2026-03-01T12:00Z',
      '2026-03-01T12:00:00',
      '2026-03-01T12:00:00.Z',
      '2026-03-01T12:00:00.1234567890Z',
      '2026-3-01T12:00:00Z',
      ' 2026-03-01T12:00:00Z',
      '2026-03-01T12:00:00Z ',
      '2026-02-29T00:00:00Z',
      '2026-02-30T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-13-01T00:00:00Z',
      '2026-00-01T00:00:00Z',
      '2026-03-00T00:00:00Z',
      '2026-03-01T24:00:00Z',
      '2026-03-01T12:60:00Z',
      '2026-03-01T12:00:60Z',
      '2026-03-01T12:00:00+24:00',
      '2026-03-01T12:00:00+01:60',
      '2026-03-01T12:00:00+0100',
    ])
      expect(snapshotTime(bad), bad).toBeUndefined();
    expect(snapshotTime('2026-03-01T23:59:59+23:59')).toBe(Date.UTC(2026, 2, 1, 0, 0, 59));
  });
});

describe('metaOf', () => {
  const row = (key: unknown, value: unknown, keyType = 'text', valueType = 'text'): MetaRow => ({
    key,
    value,
    keyType,
    valueType,
  });

  it('gives the keys and values of text rows within their bounds', () => {
    expect([...metaOf([row('a', '1'), row('b', '')], 'f')]).toEqual([
      ['a', '1'],
      ['b', ''],
    ]);
    expect(
      metaOf(
        Array.from({ length: 64 }, (_, i) => row(`k${i}`, 'v')),
        'f',
      ).size,
    ).toBe(64);
  });

  it('refuses more than 64 rows, a row not of text, a key or value over its bound (read as null)', () => {
    const cases: Array<[MetaRow[], RegExp]> = [
      [Array.from({ length: 65 }, (_, i) => row(`k${i}`, 'v')), /its meta table has more than 64 keys$/],
      [[row('a', 1, 'text', 'integer')], /the file is damaged \(a meta key or value is not text\)$/],
      [[row(1, 'v', 'integer', 'text')], /the file is damaged \(a meta key or value is not text\)$/],
      [[row(null, 'v')], /a meta key is longer than 64 bytes$/],
      [
        [row('context', null)],
        /meta\.context is longer than 1024 bytes \(a snapshot's meta values are short\)$/,
      ],
    ];
    for (const [rows, why] of cases) {
      const err = thrown(() => metaOf(rows, 'f.skiff'));
      expect(err.code).toBe('invalid_snapshot');
      expect(err.message).toMatch(/^f\.skiff is not a usable Skiff snapshot: /);
      expect(err.message).toMatch(why);
    }
  });
});

describe('factsOf', () => {
  it('gives the facts of a good meta, filling in what an older file lacks', () => {
    expect(factsOf(meta(), 'f')).toEqual({
      schemaVersion: 1,
      context: 'prod-eu',
      server: 'https://prod-eu.example:6443',
      kubernetesVersion: 'v1.31.4',
      takenAt: '2026-03-01T12:00:00Z',
      finishedAt: '2026-03-01T12:00:07Z',
    });
    expect(factsOf(meta({ server: undefined, finishedAt: undefined, kubernetesVersion: '' }), 'f')).toEqual({
      schemaVersion: 1,
      context: 'prod-eu',
      server: '',
      takenAt: '2026-03-01T12:00:00Z',
      finishedAt: '2026-03-01T12:00:00Z',
    });
  });

  it('refuses each broken rule with invalid_snapshot naming it', () => {
    const cases: Array<[Record<string, string | undefined>, string]> = [
      [{ format: 'other' }, 'meta.format is not "skiff-snapshot" (an SQLite database, but not a snapshot)'],
      [{ format: undefined }, 'meta.format is not "skiff-snapshot" (an SQLite database, but not a snapshot)'],
      [{ schemaVersion: undefined }, 'meta.schemaVersion is not a whole number'],
      [{ schemaVersion: '1.0' }, 'meta.schemaVersion is not a whole number'],
      [{ schemaVersion: '-1' }, 'meta.schemaVersion is not a whole number'],
      [{ schemaVersion: '1234567890123456' }, 'meta.schemaVersion is not a whole number'],
      [{ schemaVersion: '0' }, 'meta.schemaVersion is 0; versions start at 1'],
      [{ complete: '0' }, 'the capture did not finish (meta.complete is not 1)'],
      [{ complete: undefined }, 'the capture did not finish (meta.complete is not 1)'],
      [{ context: '' }, 'meta.context is missing'],
      [{ context: undefined }, 'meta.context is missing'],
      [
        { takenAt: '+275760-09-13T00:00:00Z' },
        'meta.takenAt is not a time (it must be an RFC 3339 time from 1970-01-01 to 9999-12-31)',
      ],
      [
        { takenAt: undefined },
        'meta.takenAt is not a time (it must be an RFC 3339 time from 1970-01-01 to 9999-12-31)',
      ],
      [
        { finishedAt: 'soon' },
        'meta.finishedAt is not a time (it must be an RFC 3339 time from 1970-01-01 to 9999-12-31)',
      ],
    ];
    for (const [changes, why] of cases) {
      const err = refusedAs(changes);
      expect(err.code, why).toBe('invalid_snapshot');
      expect(err.message).toBe(`f.skiff is not a usable Skiff snapshot: ${why}`);
    }
  });

  it('refuses a newer version with snapshot_version_unsupported, naming both, and takes the largest whole one', () => {
    const err = refusedAs({ schemaVersion: '123456789012345' });
    expect(err.code).toBe('snapshot_version_unsupported');
    expect(err.message).toBe(
      `f.skiff was written by a newer Skiff (snapshot format version 123456789012345); this Skiff reads versions up to ${SNAPSHOT_SCHEMA_VERSION}: update Skiff to open it`,
    );
    expect(err.extensions).toEqual({ schemaVersion: 123456789012345, supported: SNAPSHOT_SCHEMA_VERSION });
    expect(refusedAs({ schemaVersion: String(SNAPSHOT_SCHEMA_VERSION + 1) }).code).toBe(
      'snapshot_version_unsupported',
    );
  });

  it('checks in order: identity, version, completeness, context, takenAt, finishedAt', () => {
    const all = {
      format: 'x',
      schemaVersion: 'nine',
      complete: '0',
      context: '',
      takenAt: 'x',
      finishedAt: 'x',
    };
    const order = ['format', 'schemaVersion', 'complete', 'context', 'takenAt', 'finishedAt'];
    for (const [i, key] of order.entries()) {
      const changes = Object.fromEntries(order.slice(i).map((k) => [k, all[k as keyof typeof all]]));
      const message = refusedAs(changes).message;
      expect(message, key).toMatch(key === 'complete' ? /meta\.complete/ : new RegExp(`meta\\.${key}`));
    }
  });
});
