import { mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ProblemError } from '../errors';
import { HOSTILE_FILES, rewrite, writeBase } from './hostile-files.test-support';
import {
  CHECK_BUDGET,
  checkBudgetMs,
  checkSnapshot,
  GAPS_SHOWN,
  headerProblem,
  UNREADABLE_EVENTS_MAX,
} from './inspect';
import { ProbeAborted, runningProbes } from './probe';
import { openSnapshotFile } from './reader';
import { objectJson, refusal, tempFolder, writeSnapshot } from './skiff-file.test-support';

/**
 * The check at open (inspect.ts), run as the service runs it, in a process of its own: every
 * hostile file is refused with one line naming what is wrong, none of them runs what it holds, and
 * a check that does not end within its budget is ended.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

describe('hostile files', () => {
  for (const [i, hostile] of HOSTILE_FILES.entries()) {
    it(`refuses ${hostile.what}: invalid_snapshot, saying what`, async () => {
      const path = folder.path(`hostile-${i}.skiff`);
      hostile.build(path);
      const err = await refusal(path, 'the uploaded file');
      expect(err.code).toBe('invalid_snapshot');
      expect(err.message).toMatch(/^the uploaded file is not a usable Skiff snapshot: /);
      expect(err.message).toMatch(hostile.detail);
    });
  }

  it('opens the same file before it was changed, and one whose DDL differs only in white space', async () => {
    const path = folder.path('base.skiff');
    writeBase(path);
    expect((await checkSnapshot(path)).facts.context).toBe('prod-eu');
    rewrite(
      path,
      `PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(replace(sql, char(10), ' '), '  ', char(9)) WHERE name = 'meta';`,
    );
    expect((await checkSnapshot(path)).facts.context).toBe('prod-eu');
  });
});

describe('what the check reads and says', () => {
  it('a path that is not a regular file is refused as such, without blocking on it', async () => {
    const dir = folder.path('a-folder.skiff');
    mkdirSync(dir);
    const err = await refusal(dir);
    expect(err.message).toMatch(/it is not a regular file$/);
  });

  it("lists the file's own gaps (the first 20, then how many more) and then the event rows left out", async () => {
    const path = folder.path('gaps.skiff');
    const gaps = Array.from({ length: GAPS_SHOWN + 3 }, (_, i) =>
      i === 0
        ? { part: 'metrics', reason: 'not served' }
        : { part: 'logs', target: `shop/web-${i}/app`, reason: 'gone' },
    );
    writeSnapshot(path, {
      objects: [['pod', 'shop', 'web', objectJson('v1', 'Pod', 'shop', 'web')]],
      events: [['u-1', 'shop', '2026-03-01T11:00:00Z', true, 'not json']],
      gaps,
    });
    const checked = await checkSnapshot(path);
    expect(checked.missing).toEqual([
      ...gaps.slice(0, GAPS_SHOWN),
      { part: 'gaps', reason: '3 more gaps are listed in the file' },
      {
        part: 'events',
        reason:
          "1 event row of the file cannot be read (not a JSON object with an Event's fields) and is left out",
      },
    ]);
    expect(checked.unreadableEvents).toEqual([1]);
  });

  it('lists exactly 20 gaps with no count of more, and counts 2 rows left out as rows', async () => {
    const path = folder.path('twenty.skiff');
    const gaps = Array.from({ length: GAPS_SHOWN }, (_, i) => ({
      part: 'logs',
      target: `shop/web-${i}/app`,
      reason: 'gone',
    }));
    writeSnapshot(path, {
      events: [
        ['u-1', 'shop', '2026-03-01T11:00:00Z', true, 'not json'],
        ['u-2', 'shop', '2026-03-01T11:00:00Z', false, '[]'],
      ],
      gaps,
    });
    expect((await checkSnapshot(path)).missing).toEqual([
      ...gaps,
      {
        part: 'events',
        reason:
          "2 event rows of the file cannot be read (not a JSON object with an Event's fields) and are left out",
      },
    ]);
  });

  it('leaves out as many as 10,000 event rows that cannot be read, and refuses one more', async () => {
    const path = folder.path('many.skiff');
    writeBase(path);
    rewrite(
      path,
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM c WHERE x < ${UNREADABLE_EVENTS_MAX}) INSERT INTO events SELECT 'bad-'||x, 'shop', '2026-03-01T11:00:00Z', 0, '{' FROM c`,
    );
    const checked = await checkSnapshot(path);
    expect(checked.unreadableEvents).toHaveLength(UNREADABLE_EVENTS_MAX);
    rewrite(path, `INSERT INTO events VALUES ('one-more', 'shop', '2026-03-01T11:00:00Z', 0, '{')`);
    expect((await refusal(path)).message).toMatch(/more than 10000 of its event rows cannot be read/);
  });

  it('an event row too large refuses the file, naming it', async () => {
    const path = folder.path('big-event.skiff');
    writeBase(path);
    rewrite(
      path,
      `INSERT INTO events VALUES ('u-big', 'shop', '2026-03-01T11:00:00Z', 0, '{"metadata":{},"pad":"' || printf('%.*c', ${9 * 2 ** 20}, 'x') || '"}')`,
    );
    expect((await refusal(path)).message).toMatch(
      /the event u-big is larger than a snapshot allows \(8 MiB\)$/,
    );
  });

  it('a log over 64 MiB, more than SQLite will read, refuses the file, naming it', async () => {
    const path = folder.path('big-log.skiff');
    writeBase(path);
    rewrite(
      path,
      `INSERT INTO logs VALUES ('shop', 'web', 'app', 0, 1, printf('%.*c', ${2 ** 26 + 1}, 'x'))`,
    );
    expect((await refusal(path)).message).toMatch(
      /: the log of shop\/web container app is larger than a snapshot allows \(64 MiB\)$/,
    );
  });

  it('a file whose pages SQLite cannot read is refused as damaged, in its words', async () => {
    const path = folder.path('garbage.skiff');
    writeBase(path);
    const bytes = readFileSync(path);
    // Keep the 100-byte header; the rest of the first page (the schema's b-tree) becomes noise.
    bytes.fill(0x5a, 100, 4096);
    writeFileSync(path, bytes);
    expect((await refusal(path)).message).toMatch(
      /: the file is damaged \((database disk image is malformed|file is not a database)\)$/,
    );
  });

  it('stops when asked, before or during the check, leaving no process behind', async () => {
    const path = folder.path('stopped.skiff');
    writeBase(path);
    await expect(checkSnapshot(path, { signal: AbortSignal.abort() })).rejects.toBeInstanceOf(ProbeAborted);
    const lock = new DatabaseSync(path);
    lock.exec('BEGIN EXCLUSIVE');
    try {
      const controller = new AbortController();
      const checking = checkSnapshot(path, { signal: controller.signal }).catch((e: unknown) => e);
      for (let i = 0; i < 2_000 && runningProbes() < 2; i++) await new Promise((r) => setTimeout(r, 10));
      expect(runningProbes()).toBe(2);
      controller.abort();
      expect(await checking).toBeInstanceOf(ProbeAborted);
      expect(runningProbes()).toBe(0);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
  }, 30_000);

  it('a file without gaps and with every event readable misses nothing', async () => {
    const path = folder.path('whole.skiff');
    writeBase(path);
    expect((await checkSnapshot(path)).missing).toEqual([]);
  });

  it('a gap longer than the format allows is refused', async () => {
    const path = folder.path('long-gap.skiff');
    writeSnapshot(path, { gaps: [{ part: 'logs', reason: 'r'.repeat(4_097) }] });
    expect((await refusal(path)).message).toMatch(/a gap is larger than a snapshot allows/);
  });

  it('a log row of the wrong type, or a key too long, is refused', async () => {
    const path = folder.path('log.skiff');
    writeSnapshot(path, { logs: [['shop', 'web', 'app', false, ['line']]] });
    rewrite(path, 'UPDATE logs SET line_count = -1');
    expect((await refusal(path)).message).toMatch(/a row of logs holds a value of the wrong type/);
    rewrite(path, `UPDATE logs SET line_count = 1, container = printf('%.*c', 254, 'c')`);
    expect((await refusal(path)).message).toMatch(/a row of logs has a key longer than 253 bytes/);
  });

  it('an event row of the wrong type, or with a key too long, refuses the file (only its JSON is left out)', async () => {
    const path = folder.path('event.skiff');
    writeSnapshot(path, { events: [['u-1', 'shop', '2026-03-01T11:00:00Z', false, '{}']] });
    rewrite(path, `UPDATE events SET uid = printf('%.*c', 254, 'u')`);
    expect((await refusal(path)).message).toMatch(/a row of events has a key longer than 253 bytes/);
  });

  it('a file changed after its check is compared again when opened: the reader refuses what the check would', async () => {
    const path = folder.path('changed.skiff');
    writeBase(path);
    const checked = await checkSnapshot(path);
    rewrite(path, 'CREATE VIEW pods AS SELECT * FROM objects');
    let thrown: unknown;
    try {
      openSnapshotFile(path, checked, 'the file').close();
    } catch (err) {
      thrown = err;
    }
    expect(thrown).toBeInstanceOf(ProblemError);
    expect((thrown as ProblemError).message).toMatch(
      /^the file is not a usable Skiff snapshot: it holds view "pods"/,
    );
  });

  it('a check that does not end within its budget is ended and the file refused (here: a lock it waits for)', async () => {
    const path = folder.path('locked.skiff');
    writeBase(path);
    const lock = new DatabaseSync(path);
    lock.exec('BEGIN EXCLUSIVE');
    try {
      const err = await checkSnapshot(path, { budgetMs: 2_000 }).catch((e: unknown) => e as ProblemError);
      expect(err).toBeInstanceOf(ProblemError);
      expect((err as ProblemError).message).toMatch(
        /checking it took longer than 2 s, the most a file of its size may take$/,
      );
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
  }, 30_000);
});

it('a check one of whose processes ends on its own refuses the file, saying so, and stops the other', async () => {
  const path = folder.path('crashed.skiff');
  writeBase(path);
  const checksOf = () =>
    readdirSync('/proc')
      .filter((d) => {
        try {
          return /^\d+$/.test(d) && readFileSync(`/proc/${d}/cmdline`, 'utf8').split('\0').includes(path);
        } catch {
          return false;
        }
      })
      .map(Number)
      .sort((a, b) => a - b);
  // Either of the two: the other is stopped with it, not left waiting for its budget (30 s).
  for (const which of [0, 1]) {
    const lock = new DatabaseSync(path);
    lock.exec('BEGIN EXCLUSIVE');
    try {
      const checking = checkSnapshot(path).then(
        () => undefined,
        (e: unknown) => e as ProblemError,
      );
      let pids: number[] = [];
      for (let i = 0; i < 2_000 && pids.length < 2; i++) {
        await new Promise((r) => setTimeout(r, 10));
        pids = checksOf();
      }
      expect(pids).toHaveLength(2);
      process.kill(pids[which]!, 'SIGKILL');
      const err = await checking;
      expect(err).toBeInstanceOf(ProblemError);
      expect(err!.code).toBe('invalid_snapshot');
      expect(err!.message).toMatch(/checking it failed: its process ended \(SIGKILL\)$/);
      expect(checksOf()).toEqual([]);
    } finally {
      lock.exec('ROLLBACK');
      lock.close();
    }
  }
}, 30_000);

describe('checkBudgetMs', () => {
  it('is the base and 30 s per GiB, rounded up to the millisecond', () => {
    expect(checkBudgetMs(0)).toBe(CHECK_BUDGET.baseMs);
    expect(CHECK_BUDGET).toEqual({ baseMs: 30_000, perGiBMs: 30_000 });
    expect(checkBudgetMs(2 ** 30, 1_000)).toBe(31_000);
    expect(checkBudgetMs(2 ** 29, 0)).toBe(15_000);
    expect(checkBudgetMs(1, 0)).toBe(1);
  });
});

describe('headerProblem', () => {
  const header = (f: (b: Buffer) => void) => {
    const b = Buffer.alloc(100);
    b.write('SQLite format 3\0', 'latin1');
    b[18] = 1;
    b[19] = 1;
    b.writeUInt16BE(4096, 16);
    f(b);
    return b;
  };

  it('takes a rollback-journal header whose page count the size covers, or does not vouch for', () => {
    expect(
      headerProblem(
        header(() => {}),
        4096,
      ),
    ).toBeUndefined();
    const counted = header((b) => {
      b.writeUInt32BE(3, 28);
      b.writeUInt32BE(7, 24);
      b.writeUInt32BE(7, 92);
    });
    expect(headerProblem(counted, 3 * 4096)).toBeUndefined();
    expect(headerProblem(counted, 3 * 4096 - 1)).toBe(
      `the file is truncated (${3 * 4096 - 1} of ${3 * 4096} bytes)`,
    );
    counted.writeUInt32BE(8, 92);
    expect(headerProblem(counted, 10)).toBeUndefined();
  });

  it('refuses a WAL header, a short one and one that is not SQLite', () => {
    expect(
      headerProblem(
        header((b) => (b[18] = 2)),
        4096,
      ),
    ).toMatch(/WAL-mode/);
    expect(
      headerProblem(
        header((b) => (b[19] = 2)),
        4096,
      ),
    ).toMatch(/WAL-mode/);
    expect(headerProblem(header(() => {}).subarray(0, 99), 99)).toBe('the file is truncated (99 bytes)');
    expect(headerProblem(Buffer.from('SQLite format 3'), 15)).toBe('it is not an SQLite database');
    expect(headerProblem(Buffer.from('SQLite format 4\0'.padEnd(100, ' ')), 100)).toBe(
      'it is not an SQLite database',
    );
  });

  it('reads 64 KiB pages from page size 1', () => {
    const big = header((b) => {
      b.writeUInt16BE(1, 16);
      b.writeUInt32BE(2, 28);
    });
    expect(headerProblem(big, 65_536)).toBe('the file is truncated (65536 of 131072 bytes)');
  });
});

it('writes nothing into the folder of the file it checks', async () => {
  const path = folder.path('quiet.skiff');
  writeBase(path);
  writeFileSync(folder.path('other'), '');
  await checkSnapshot(path);
  expect(readdirSync(folder.dir).sort()).toEqual(['other', 'quiet.skiff']);
});
