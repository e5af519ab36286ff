/**
 * Retention when the service closes (the database sealed) before or during a pass, on SQLite in a
 * temp dir (what is asserted is the backend seam's, the same on both backends; store.test.ts has
 * the pruning itself on both): nothing goes, and the pass tries at most one write, which the
 * backend drops and logs under retention's own label.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Logger } from '../../logger';
import { silentLogger } from '../../logger';
import { openAppDatabase } from '../../storage/database';
import { SqliteBackend } from '../../storage/sqlite-backend';
import { capturingLogger } from '../usage/usage.test-support';
import { pruneCluster } from './retention';
import { type ChangeRow, ChangeStore } from './store';

const C = 'c1';

/** One object's chain: a whole first row, then one patch per minute. */
function chain(name: string, n: number): ChangeRow[] {
  return Array.from({ length: n }, (_, i) => ({
    resourceType: 'deployment',
    kind: 'Deployment',
    namespace: 'ns',
    uid: `uid-${name}`,
    name,
    timeMs: i * 60_000,
    change: i === 0 ? 'seen' : 'updated',
    resourceVersion: String(i + 1),
    patch: i === 0 ? '[]' : JSON.stringify([{ op: 'replace', path: '/spec/replicas', value: i + 1 }]),
    summary: i === 0 ? 'first seen' : `replicas ${i} → ${i + 1}`,
    object: i === 0 ? JSON.stringify({ metadata: { name }, spec: { replicas: 1 } }) : null,
  }));
}

/** The store of a service that closes while retention reads the cluster's total. */
class ClosingDuringTotal extends ChangeStore {
  override async total(clusterId: string): Promise<number> {
    const n = await super.total(clusterId);
    this.backend.seal();
    return n;
  }
}

let dir: string;
let backend: SqliteBackend;
let lines: Array<Record<string, unknown>>;

beforeEach(async () => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-retention-'));
  let logger: Logger;
  ({ logger, lines } = capturingLogger());
  backend = new SqliteBackend(openAppDatabase({ dataDir: dir, logger: silentLogger() }), logger);
  const store = new ChangeStore(backend);
  await backend.transaction('test', (tx) => store.insert(tx, C, chain('a', 6), 1));
});
afterEach(async () => {
  await backend.close();
  rmSync(dir, { recursive: true, force: true });
});

const count = async () =>
  (await backend.get<{ n: number }>('SELECT count(*) AS n FROM change_history'))?.n ?? 0;
const dropped = () => lines.filter((l) => l.msg === 'write after the service closed was dropped');

it('a sealed database ends the pass at its first write: nothing goes, one dropped write logged as retention', async () => {
  backend.seal();
  // Rows both past the window and over the cap: each loop would write if the pass went on.
  expect(await pruneCluster(new ChangeStore(backend), C, { beforeMs: 1e12, maxPerCluster: 1 })).toBe(0);
  expect(dropped()).toEqual([expect.objectContaining({ write: 'change retention' })]);
  expect(await count()).toBe(6);
});

it('closing between the window and the cap ends the pass at the cap’s first write, logged as retention', async () => {
  const store = new ClosingDuringTotal(backend);
  expect(await pruneCluster(store, C, { beforeMs: -1, maxPerCluster: 2, batch: 2 })).toBe(0);
  expect(dropped()).toEqual([expect.objectContaining({ write: 'change retention' })]);
  expect(await count()).toBe(6);
});

it('a cluster exactly at its cap makes no write for the cap', async () => {
  const store = new ClosingDuringTotal(backend);
  expect(await pruneCluster(store, C, { beforeMs: -1, maxPerCluster: 6 })).toBe(0);
  expect(dropped()).toEqual([]);
});
