import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { SNAPSHOT_SCHEMA_VERSION } from './format';
import { openSnapshotFile, type SnapshotFacts } from './reader';
import { alterFile, META, objectJson, tempFolder, writeSnapshot } from './skiff-file.test-support';

/**
 * What the reader asks of a file's meta table: that it says it is a snapshot, of a version this
 * Skiff reads, whose capture finished, with a context and a time; and what it makes of the keys an
 * older file may lack.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
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

function opened(path: string): SnapshotFacts {
  const file = openSnapshotFile(path);
  file.close();
  return file.facts;
}

function refusal(path: string): ProblemError {
  let thrown: unknown;
  try {
    openSnapshotFile(path).close();
  } catch (err) {
    thrown = err;
  }
  expect(thrown).toBeInstanceOf(ProblemError);
  return thrown as ProblemError;
}

function expectInvalid(changes: Record<string, string | null>, why: RegExp): void {
  const path = withMeta(changes);
  const err = refusal(path);
  expect(err.code, JSON.stringify(changes)).toBe('invalid_snapshot');
  expect(err.message, JSON.stringify(changes)).toContain(path);
  expect(err.message, JSON.stringify(changes)).toMatch(why);
}

describe('meta', () => {
  it('a file whose meta.format is another, or absent, is refused as not a snapshot', () => {
    const why = /meta\.format is not "skiff-snapshot"/;
    expectInvalid({ format: 'other-tool' }, why);
    expectInvalid({ format: 'Skiff-Snapshot' }, why);
    expectInvalid({ format: null }, why);
  });

  it('a file from a newer Skiff is refused with snapshot_version_unsupported, naming both versions', () => {
    for (const newer of [SNAPSHOT_SCHEMA_VERSION + 1, 12]) {
      const path = withMeta({ schemaVersion: String(newer) });
      const err = refusal(path);
      expect(err.code).toBe('snapshot_version_unsupported');
      expect(err.message).toContain(path);
      expect(err.message).toContain(`snapshot format version ${newer}`);
      expect(err.message).toContain(`reads versions up to ${SNAPSHOT_SCHEMA_VERSION}`);
      expect(err.extensions).toEqual({ schemaVersion: newer, supported: SNAPSHOT_SCHEMA_VERSION });
    }
  });

  it('a file of any version up to the reader’s own opens, and says which it is', () => {
    expect(SNAPSHOT_SCHEMA_VERSION).toBe(1);
    expect(opened(withMeta({})).schemaVersion).toBe(1);
    expect(opened(withMeta({ schemaVersion: '0' })).schemaVersion).toBe(0);
  });

  it('a schemaVersion that is not a whole number is refused', () => {
    for (const bad of ['one', '1.0', '1a', 'v1', '-1', ' 1', '', null])
      expectInvalid({ schemaVersion: bad }, /meta\.schemaVersion is not a whole number/);
  });

  it('a file without complete = 1 is refused: the capture did not finish', () => {
    for (const bad of [null, '0', 'true', '11'])
      expectInvalid({ complete: bad }, /did not finish \(meta\.complete is not 1\)/);
  });

  it('a file without a context, or whose takenAt is not a time, is refused', () => {
    expectInvalid({ context: null }, /meta\.context is missing/);
    expectInvalid({ context: '' }, /meta\.context is missing/);
    expectInvalid({ takenAt: 'yesterday' }, /meta\.takenAt is not a time/);
    expectInvalid({ takenAt: null }, /meta\.takenAt is not a time/);
  });

  it('the checks go in order: what the file is, its version, then whether it finished', () => {
    expect(refusal(withMeta({ format: 'other', schemaVersion: '2', complete: null })).message).toMatch(
      /meta\.format/,
    );
    expect(refusal(withMeta({ schemaVersion: '2', complete: null })).code).toBe(
      'snapshot_version_unsupported',
    );
    expect(refusal(withMeta({ complete: null, context: null })).message).toMatch(/did not finish/);
  });

  it('what an older file may lack is filled in: no server is empty, no finishedAt is takenAt, no kubernetesVersion is left out', () => {
    const facts = opened(withMeta({ server: null, finishedAt: null, kubernetesVersion: null }));
    expect(facts).toEqual({
      schemaVersion: 1,
      context: META.context,
      server: '',
      takenAt: META.takenAt,
      finishedAt: META.takenAt,
    });
    expect(opened(withMeta({ kubernetesVersion: '' }))).not.toHaveProperty('kubernetesVersion');
  });
});
