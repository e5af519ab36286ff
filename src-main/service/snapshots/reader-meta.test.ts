import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ProblemError } from '../errors';
import type { SnapshotFacts } from './facts';
import { SNAPSHOT_SCHEMA_VERSION } from './format';
import { checkSnapshot } from './inspect';
import { alterFile, META, objectJson, refusal, tempFolder, writeSnapshot } from './skiff-file.test-support';

/**
 * What the reader asks of a file's meta table: that it says it is a snapshot, of a version this
 * Skiff reads, whose capture finished, with a context and a time; and what it makes of the keys an
 * older file may lack.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(async () => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

let n = 0;
/** A good file, with one meta key changed (or removed with null) afterwards. */
function withMeta(changes: Record<string, string | null>): string {
  const path = folder.path(`meta-${++n}.skiff`);
  writeSnapshot(path, { objects: [['node', '', 'n1', objectJson('v1', 'Node', '', 'n1')]] });
  for (const [key, value] of Object.entries(changes)) {
    if (value === null) alterFile(path, 'DELETE FROM meta WHERE key = ?', key);
    else alterFile(path, 'INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)', key, value);
  }
  return path;
}

async function opened(path: string): Promise<SnapshotFacts> {
  return (await checkSnapshot(path)).facts;
}

async function expectInvalid(changes: Record<string, string | null>, why: RegExp): Promise<void> {
  const path = withMeta(changes);
  const err: ProblemError = await refusal(path);
  expect(err.code, JSON.stringify(changes)).toBe('invalid_snapshot');
  expect(err.message, JSON.stringify(changes)).toContain(path);
  expect(err.message, JSON.stringify(changes)).toMatch(why);
}

describe('meta', () => {
  it('a file whose meta.format is another, or absent, is refused as not a snapshot', async () => {
    const why = /meta\.format is not "skiff-snapshot"/;
    await expectInvalid({ format: 'other-tool' }, why);
    await expectInvalid({ format: 'Skiff-Snapshot' }, why);
    await expectInvalid({ format: null }, why);
  });

  it('a file from a newer Skiff is refused with snapshot_version_unsupported, naming both versions', async () => {
    for (const newer of [SNAPSHOT_SCHEMA_VERSION + 1, 12]) {
      const path = withMeta({ schemaVersion: String(newer) });
      const err = await refusal(path);
      expect(err.code).toBe('snapshot_version_unsupported');
      expect(err.message).toContain(path);
      expect(err.message).toContain(`snapshot format version ${newer}`);
      expect(err.message).toContain(`reads versions up to ${SNAPSHOT_SCHEMA_VERSION}`);
      expect(err.extensions).toEqual({ schemaVersion: newer, supported: SNAPSHOT_SCHEMA_VERSION });
    }
  });

  it('a file of the reader’s own version opens, and says which it is', async () => {
    expect(SNAPSHOT_SCHEMA_VERSION).toBe(3);
    expect((await opened(withMeta({}))).schemaVersion).toBe(3);
  });

  it('a schemaVersion that is not a whole number, or is 0, is refused', async () => {
    for (const bad of ['one', '1.0', '1a', 'v1', '-1', '-0', ' 1', '', '1234567890123456', null])
      await expectInvalid({ schemaVersion: bad }, /meta\.schemaVersion is not a whole number/);
    for (const zero of ['0', '00'])
      await expectInvalid({ schemaVersion: zero }, /meta\.schemaVersion is 0; versions start at 1/);
  });

  it('a file without complete = 1 is refused: the capture did not finish', async () => {
    for (const bad of [null, '0', 'true', '11'])
      await expectInvalid({ complete: bad }, /did not finish \(meta\.complete is not 1\)/);
  });

  it('a file without a context, or whose takenAt is not a time, is refused', async () => {
    await expectInvalid({ context: null }, /meta\.context is missing/);
    await expectInvalid({ context: '' }, /meta\.context is missing/);
    await expectInvalid({ takenAt: 'yesterday' }, /meta\.takenAt is not a time/);
    await expectInvalid({ takenAt: null }, /meta\.takenAt is not a time/);
  });

  it('a takenAt or finishedAt no date can hold, or outside 1970–9999, is refused', async () => {
    const why = 'is not a time \\(it must be an RFC 3339 time from 1970-01-01 to 9999-12-31\\)';
    // Today the first gives 500s and the second a cluster id every read refuses.
    for (const bad of ['-271821-04-20T00:00:00Z', '+275760-09-13T00:00:00Z', '1969-12-31T23:59:59Z'])
      await expectInvalid({ takenAt: bad }, new RegExp(`meta\\.takenAt ${why}`));
    await expectInvalid({ finishedAt: '+275760-09-13T00:00:00Z' }, new RegExp(`meta\\.finishedAt ${why}`));
    const edge = await opened(
      withMeta({ takenAt: '1970-01-01T00:00:00Z', finishedAt: '9999-12-31T23:59:59Z' }),
    );
    expect([edge.takenAt, edge.finishedAt]).toEqual(['1970-01-01T00:00:00Z', '9999-12-31T23:59:59Z']);
  });

  it('meta is small: a value over 1,024 bytes, a key over 64 or more than 64 keys is refused, naming which', async () => {
    // A 5 MB context made every cluster list 10 MB.
    await expectInvalid(
      { context: 'c'.repeat(1_025) },
      /meta\.context is longer than 1024 bytes \(a snapshot's meta values are short\)/,
    );
    expect((await opened(withMeta({ context: 'c'.repeat(1_024) }))).context).toHaveLength(1_024);
    await expectInvalid({ ['k'.repeat(65)]: 'v' }, /a meta key is longer than 64 bytes/);
    const many = Object.fromEntries(Array.from({ length: 64 - 12 }, (_, i) => [`extra${i}`, 'v']));
    expect((await opened(withMeta(many))).context).toBe(META.context);
    await expectInvalid({ ...many, oneTooMany: 'v' }, /its meta table has more than 64 keys/);
  });

  it('the checks go in order: what the file is, its version, then whether it finished', async () => {
    expect(
      (await refusal(withMeta({ format: 'other', schemaVersion: '4', complete: null }))).message,
    ).toMatch(/meta\.format/);
    expect((await refusal(withMeta({ schemaVersion: '4', complete: null }))).code).toBe(
      'snapshot_version_unsupported',
    );
    expect((await refusal(withMeta({ complete: null, context: null }))).message).toMatch(/did not finish/);
  });

  it('what an older file may lack is filled in: no server is empty, no finishedAt is takenAt, no kubernetesVersion is left out', async () => {
    const facts = await opened(withMeta({ server: null, finishedAt: null, kubernetesVersion: null }));
    expect(facts).toEqual({
      schemaVersion: SNAPSHOT_SCHEMA_VERSION,
      context: META.context,
      server: '',
      takenAt: META.takenAt,
      finishedAt: META.takenAt,
    });
    expect(await opened(withMeta({ kubernetesVersion: '' }))).not.toHaveProperty('kubernetesVersion');
  });
});
