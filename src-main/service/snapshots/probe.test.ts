import { getEventListeners } from 'node:events';
import { readdirSync, readFileSync } from 'node:fs';
import { setImmediate as turn } from 'node:timers/promises';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { rewrite, writeBase } from './hostile-files.test-support';
import {
  killAllProbes,
  PROBE_MARK,
  ProbeAborted,
  ProbeCrashed,
  ProbeQueryError,
  ProbeTimeout,
  runningProbes,
  withProbe,
} from './probe';
import { tempFolder } from './skiff-file.test-support';

/**
 * A file opened in a process of its own: what it answers, and that a statement that never ends
 * costs this process nothing and is ended with its process when the budget passes or the caller
 * gives up.
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

/** Processes on this machine checking `path` (Linux: /proc). */
function probesOf(path: string): number[] {
  const found: number[] = [];
  for (const pid of readdirSync('/proc').filter((d) => /^\d+$/.test(d))) {
    try {
      const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
      if (args.includes(PROBE_MARK) && args.includes(path)) found.push(Number(pid));
    } catch {
      // Gone meanwhile.
    }
  }
  return found;
}

async function until(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 2_000 && !condition(); i++) await new Promise((r) => setTimeout(r, 10));
  expect(condition()).toBe(true);
}

/** A file whose objects table joined with itself four times is a statement that runs for hours. */
function slowFile(name: string): string {
  const path = folder.path(name);
  writeBase(path);
  rewrite(
    path,
    `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < 2000) INSERT INTO objects SELECT 'pod', 'shop', 'p'||x, '{"metadata":{}}' FROM c`,
  );
  return path;
}
const ENDLESS_SQL = 'SELECT count(*) AS n FROM objects a, objects b, objects c, objects d';

describe('withProbe', () => {
  it("answers the file's head, its digest and the rows of a statement", async () => {
    const path = folder.path('good.skiff');
    writeBase(path);
    const bytes = readFileSync(path);
    const answer = await withProbe(path, { budgetMs: 20_000 }, async (probe) => {
      const head = await probe.head(16);
      const digest = await probe.digest();
      await probe.open();
      const rows = await probe.all<{ n: number }>('SELECT count(*) AS n FROM objects WHERE kind = ?', 'pod');
      return { head, digest, rows };
    });
    expect([answer.head.regular, answer.head.size]).toEqual([true, bytes.length]);
    expect(Buffer.from(answer.head.header).equals(bytes.subarray(0, 16))).toBe(true);
    expect(answer.digest.bytes).toBe(bytes.length);
    expect(answer.digest.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(answer.rows).toEqual([{ n: 3 }]);
    expect(runningProbes()).toBe(0);
    expect(probesOf(path)).toEqual([]);
  });

  it('counts its child while it runs, and a call after it returned is refused at once', async () => {
    const path = folder.path('counted.skiff');
    writeBase(path);
    let leaked: Parameters<Parameters<typeof withProbe>[2]>[0] | undefined;
    const during = await withProbe(path, { budgetMs: 20_000 }, async (probe) => {
      leaked = probe;
      return [runningProbes(), probesOf(path).length];
    });
    expect(during).toEqual([1, 1]);
    await expect(leaked!.all('SELECT 1')).rejects.toBeInstanceOf(ProbeAborted);
    expect(probesOf(path)).toEqual([]);
  });

  it('gives what SQLite refuses as ProbeQueryError, in its words: no view, no recursion, no pragma, no write', async () => {
    const path = folder.path('refusals.skiff');
    writeBase(path);
    rewrite(path, 'CREATE VIEW v AS SELECT * FROM objects');
    const errors = await withProbe(path, { budgetMs: 20_000 }, async (probe) => {
      await probe.open();
      const out: string[] = [];
      for (const sql of [
        'SELECT * FROM v',
        'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c) SELECT x FROM c LIMIT 1',
        'PRAGMA table_info(objects)',
        "DELETE FROM objects WHERE kind = 'pod'",
        'SELECT * FROM nowhere',
      ])
        out.push(
          await probe.all(sql).then(
            () => 'answered',
            (err: Error) => `${err.constructor.name}: ${err.message}`,
          ),
        );
      return out;
    });
    expect(errors).toEqual([
      'ProbeQueryError: access to objects.kind is prohibited',
      'ProbeQueryError: not authorized',
      'ProbeQueryError: not authorized',
      expect.stringMatching(/^ProbeQueryError: (not authorized|attempt to write a readonly database)/),
      'ProbeQueryError: no such table: nowhere',
    ]);
  });

  it('ends a statement that outlasts the budget with its process, while this event loop keeps turning', async () => {
    const path = slowFile('slow.skiff');
    let turns = 0;
    let running = true;
    const spin = (async () => {
      while (running) {
        await turn();
        turns++;
      }
    })();
    let turnsWhilePending = 0;
    const thrown = await withProbe(path, { budgetMs: 1_500 }, async (probe) => {
      await probe.open();
      const pending = probe.all(ENDLESS_SQL);
      const before = turns;
      await until(() => turns > before + 10);
      turnsWhilePending = turns - before;
      return pending;
    }).catch((err: unknown) => err);
    running = false;
    await spin;
    expect(thrown).toBeInstanceOf(ProbeTimeout);
    expect((thrown as ProbeTimeout).budgetMs).toBe(1_500);
    expect((thrown as ProbeTimeout).message).toBe('the check took longer than 1500 ms');
    expect(turnsWhilePending).toBeGreaterThan(10);
    await until(() => probesOf(path).length === 0);
    expect(runningProbes()).toBe(0);
  }, 30_000);

  it('ends the process when the caller aborts, and refuses to start once aborted', async () => {
    const path = slowFile('aborted.skiff');
    const controller = new AbortController();
    const thrown = withProbe(path, { budgetMs: 60_000, signal: controller.signal }, async (probe) => {
      await probe.open();
      return probe.all(ENDLESS_SQL);
    }).catch((err: unknown) => err);
    await until(() => probesOf(path).length === 1);
    controller.abort();
    expect(await thrown).toBeInstanceOf(ProbeAborted);
    expect(((await thrown) as Error).message).toBe('the check was stopped');
    await until(() => probesOf(path).length === 0);
    await expect(
      withProbe(path, { budgetMs: 1_000, signal: controller.signal }, async () => 1),
    ).rejects.toBeInstanceOf(ProbeAborted);
  }, 30_000);

  it('says when its process ends by itself, and refuses calls after that', async () => {
    const path = folder.path('gone.skiff');
    writeBase(path);
    const thrown = await withProbe(path, { budgetMs: 20_000 }, async (probe) => {
      await probe.open();
      const [pid] = probesOf(path);
      process.kill(pid!, 'SIGKILL');
      await probe.all('SELECT 1').catch(() => undefined);
      return probe.all('SELECT 1');
    }).catch((err: unknown) => err as Error);
    expect(thrown).toBeInstanceOf(ProbeCrashed);
    expect((thrown as Error).message).toBe('its process ended (SIGKILL)');
  });

  it('a call the work still waits for when the child ends is refused with how it ended', async () => {
    const path = slowFile('waiting.skiff');
    let seen: unknown;
    const thrown = await withProbe(path, { budgetMs: 1_000 }, async (probe) => {
      await probe.open();
      const pending = probe.all(ENDLESS_SQL);
      pending.catch((err: unknown) => {
        seen = err;
      });
      return pending;
    }).catch((err: unknown) => err);
    expect(thrown).toBeInstanceOf(ProbeTimeout);
    await turn();
    expect(seen).toBe(thrown);
  }, 30_000);

  it('killAllProbes ends every check in progress (what happens when this process exits)', async () => {
    const path = slowFile('exiting.skiff');
    const thrown = withProbe(path, { budgetMs: 60_000 }, async (probe) => {
      await probe.open();
      return probe.all(ENDLESS_SQL);
    }).catch((err: unknown) => err);
    await until(() => probesOf(path).length === 1);
    killAllProbes();
    const err = await thrown;
    expect(err).toBeInstanceOf(ProbeCrashed);
    expect((err as Error).message).toBe('its process ended (SIGKILL)');
    expect(probesOf(path)).toEqual([]);
  }, 30_000);

  it('gives what spawn says when there is no child at all', async () => {
    const path = folder.path('unspawned.skiff');
    writeBase(path);
    const execPath = process.execPath;
    process.execPath = folder.path('no-such-node');
    let thrown: unknown;
    try {
      thrown = await withProbe(path, { budgetMs: 20_000 }, (probe) => probe.head(16)).catch(
        (err: unknown) => err,
      );
    } finally {
      process.execPath = execPath;
    }
    expect(thrown).toBeInstanceOf(Error);
    expect((thrown as NodeJS.ErrnoException).code).toBe('ENOENT');
    expect(runningProbes()).toBe(0);
  });

  it('leaves nothing of itself on the caller’s signal once it returns', async () => {
    const path = folder.path('listeners.skiff');
    writeBase(path);
    const controller = new AbortController();
    await withProbe(path, { budgetMs: 20_000, signal: controller.signal }, (probe) => probe.head(16));
    expect(getEventListeners(controller.signal, 'abort')).toEqual([]);
  });

  it('a path that does not exist, or is not SQLite, is a ProbeQueryError of the step that met it', async () => {
    const missing = folder.path('nowhere.skiff');
    await expect(withProbe(missing, { budgetMs: 20_000 }, (p) => p.head(100))).rejects.toThrow(
      ProbeQueryError,
    );
    await expect(withProbe(missing, { budgetMs: 20_000 }, (p) => p.head(100))).rejects.toThrow(/ENOENT/);
  });
});
