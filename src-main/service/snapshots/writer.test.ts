import { existsSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { META, objectJson, openChecked, tableRows, tempFolder } from './skiff-file.test-support';
import { SnapshotWriter } from './writer';

/** How the writer puts a `.skiff` file in place: only whole, under its final name, for its owner. */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

describe('SnapshotWriter', () => {
  it('finish renames the file to its final name, readable by its owner only, and returns its size', async () => {
    const temp = folder.path('capture-1.skiff.partial');
    const final = folder.path('prod.skiff');
    const writer = new SnapshotWriter(temp);
    expect(existsSync(final)).toBe(false);
    writer.object('node', '', 'n1', objectJson('v1', 'Node', '', 'n1'));
    const size = writer.finish(META, [], final);
    expect(readdirSync(folder.dir)).toEqual(['prod.skiff']);
    expect(size).toBe(statSync(final).size);
    expect(size).toBeGreaterThan(0);
    if (process.platform !== 'win32') expect(statSync(final).mode & 0o777).toBe(0o600);
    const file = await openChecked(final);
    expect(file.objects('node').map((o) => o.name)).toEqual(['n1']);
    file.close();
  });

  it('rows still in an open transaction at finish are committed with it', async () => {
    const final = folder.path('open-tx.skiff');
    const writer = new SnapshotWriter(folder.path('open-tx.partial'));
    writer.begin();
    writer.object('namespace', '', 'shop', objectJson('v1', 'Namespace', '', 'shop'));
    writer.finish(META, [{ part: 'events', reason: 'gone' }], final);
    expect(tableRows<{ name: string }>(final, 'SELECT name FROM objects').map((r) => r.name)).toEqual([
      'shop',
    ]);
    expect(tableRows<{ part: string }>(final, 'SELECT part FROM gaps').map((r) => r.part)).toEqual([
      'events',
    ]);
  });

  it('begin inside a transaction and commit outside one do nothing', async () => {
    const final = folder.path('twice.skiff');
    const writer = new SnapshotWriter(folder.path('twice.partial'));
    writer.begin();
    writer.begin();
    writer.object('node', '', 'a', objectJson('v1', 'Node', '', 'a'));
    writer.commit();
    writer.commit();
    writer.begin();
    writer.object('node', '', 'b', objectJson('v1', 'Node', '', 'b'));
    writer.commit();
    writer.finish(META, [], final);
    expect(
      tableRows<{ name: string }>(final, 'SELECT name FROM objects ORDER BY name').map((r) => r.name),
    ).toEqual(['a', 'b']);
  });

  it('a file left under the temporary name by an earlier run is replaced, not written into', async () => {
    const temp = folder.path('stale.partial');
    writeFileSync(temp, 'left by a capture that crashed\n');
    const final = folder.path('stale.skiff');
    const writer = new SnapshotWriter(temp);
    writer.object('node', '', 'n', objectJson('v1', 'Node', '', 'n'));
    writer.finish(META, [], final);
    const file = await openChecked(final);
    expect(file.objects('node').map((o) => o.name)).toEqual(['n']);
    file.close();
  });

  it('discard removes the temporary file and its journal, and leaves no final file', async () => {
    const temp = folder.path('dropped.partial');
    const writer = new SnapshotWriter(temp);
    writer.begin();
    writer.object('node', '', 'n', objectJson('v1', 'Node', '', 'n'));
    writeFileSync(`${temp}-journal`, 'journal');
    writer.discard();
    expect(readdirSync(folder.dir)).toEqual([]);
    // A second discard (a caller's clean-up after a failed finish) is harmless.
    writer.discard();
  });

  it('discard after finish touches nothing: not the final file, not a new file under the temporary name', async () => {
    const temp = folder.path('done.partial');
    const final = folder.path('done.skiff');
    const writer = new SnapshotWriter(temp);
    writer.finish(META, [], final);
    writeFileSync(temp, 'the next capture');
    writer.discard();
    expect(readdirSync(folder.dir).sort()).toEqual(['done.partial', 'done.skiff']);
  });
});
