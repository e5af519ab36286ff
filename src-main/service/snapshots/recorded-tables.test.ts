import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../logger';
import { AppDatabase } from '../storage/database';
import { FILE_LIMITS } from './connection';
import { RECORDED_LIMITS, SNAPSHOT_DDL_OF } from './format';
import {
  type ChangeRow,
  fitsChange,
  fitsKeptLog,
  fitsUsage,
  type KeptLogRow,
  RECORDED_COLUMNS,
  type RecordedTable,
  recordedInsertSql,
  recordedRowBytes,
  recordedSizeSql,
  recordedTablesProblem,
  recordedValues,
  type UsageRow,
} from './recorded-tables';
import {
  changeRow,
  keptLogRow,
  openChecked,
  tempFolder,
  toVersion2,
  usageRow,
  writeSnapshot,
} from './skiff-file.test-support';

/**
 * The recorded tables of a version-3 file (recorded-tables.ts): what the writer puts in is what the
 * reader gives back, the file's tables are the app's without cluster_id, and the bounds a capture
 * keeps to are the ones the check holds files to. Hostile files are in hostile-files.test-support.ts
 * (checked by inspect.test.ts and, uploaded, by snapshot-hostile.it.test.ts).
 */

let folder: ReturnType<typeof tempFolder>;
beforeEach(() => {
  folder = tempFolder();
});
afterEach(() => folder.remove());

const TABLES: RecordedTable[] = ['change_history', 'usage_samples', 'kept_logs'];

describe('the recorded tables of a file', () => {
  it("are the app database's tables of the same names without cluster_id, column for column", () => {
    const db = AppDatabase.open(':memory:', silentLogger());
    try {
      for (const table of TABLES) {
        const columns = db
          .all<{ name: string }>(`SELECT name FROM pragma_table_info('${table}')`)
          .map((c) => c.name);
        expect(columns.filter((c) => c !== 'cluster_id')).toEqual([...RECORDED_COLUMNS[table]]);
      }
    } finally {
      db.close();
    }
  });

  it('give back every row as it was written, nulls included, in key order; a version-2 file has none', async () => {
    const changes = [
      changeRow({ id: 7, object: JSON.stringify({ metadata: { name: 'checkout' }, spec: { replicas: 3 } }) }),
      changeRow({ id: 9, change: 'deleted', time_ms: changeRow().time_ms + 1 }),
    ];
    const usage = [usageRow({ subject: 'node', namespace: '', name: 'n1' }), usageRow()];
    const keptLogs = [keptLogRow({ exit_code: null, finished_at: null, reason: 'OOMKilled' })];
    const path = folder.path('v3.skiff');
    writeSnapshot(path, { changes, usage, keptLogs });
    const file = await openChecked(path);
    try {
      expect([...file.recordedBatches('change_history', 1)]).toEqual([[changes[0]], [changes[1]]]);
      // usage_samples is kept in its key's order: node before pod.
      expect([...file.recordedBatches('usage_samples', 10)]).toEqual([usage]);
      expect([...file.recordedBatches('kept_logs', 10)]).toEqual([keptLogs]);
    } finally {
      file.close();
    }
    toVersion2(path);
    const v2 = await openChecked(path);
    try {
      expect(v2.facts.schemaVersion).toBe(2);
      for (const table of TABLES) expect([...v2.recordedBatches(table, 10)]).toEqual([]);
    } finally {
      v2.close();
    }
  });

  it('an empty table has no batch', async () => {
    const path = folder.path('empty.skiff');
    writeSnapshot(path, {});
    const file = await openChecked(path);
    try {
      for (const table of TABLES) expect([...file.recordedBatches(table, 10)]).toEqual([]);
    } finally {
      file.close();
    }
  });
});

describe('rows', () => {
  it('insert in the columns’ order', () => {
    expect(recordedInsertSql('usage_samples')).toBe(
      'INSERT INTO usage_samples (subject, namespace, name, time_ms, resolution_ms, containers) VALUES (?, ?, ?, ?, ?, ?)',
    );
    const row = keptLogRow({ finished_at: null });
    expect(recordedValues('kept_logs', row)).toEqual(RECORDED_COLUMNS.kept_logs.map((c) => row[c]));
    expect(recordedValues('kept_logs', row)[6]).toBeNull();
  });

  it('count their text as their bytes', () => {
    expect(recordedRowBytes({ a: 'é', b: 12, c: null, d: 'xy' })).toBe(4);
  });

  it('fit a file up to each bound, and not a byte past it', () => {
    const key = 'k'.repeat(FILE_LIMITS.keyBytes);
    const over = `${key}k`;
    expect(fitsChange(changeRow({ name: key, uid: key, resource_version: key }))).toBe(true);
    for (const field of ['resource_type', 'kind', 'namespace', 'name', 'uid', 'resource_version'] as const)
      expect(fitsChange(changeRow({ [field]: over })), field).toBe(false);
    const json = (n: number) => `"${'x'.repeat(n - 2)}"`;
    expect(fitsChange(changeRow({ patch: json(RECORDED_LIMITS.jsonBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ patch: json(RECORDED_LIMITS.jsonBytes + 1) }))).toBe(false);
    expect(fitsChange(changeRow({ object: json(RECORDED_LIMITS.jsonBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ object: json(RECORDED_LIMITS.jsonBytes + 1) }))).toBe(false);
    expect(fitsChange(changeRow({ summary: 's'.repeat(RECORDED_LIMITS.summaryBytes) }))).toBe(true);
    expect(fitsChange(changeRow({ summary: 's'.repeat(RECORDED_LIMITS.summaryBytes + 1) }))).toBe(false);

    expect(fitsUsage(usageRow({ namespace: key, name: key }))).toBe(true);
    expect(fitsUsage(usageRow({ namespace: over }))).toBe(false);
    expect(fitsUsage(usageRow({ name: over }))).toBe(false);
    expect(fitsUsage(usageRow({ containers: json(RECORDED_LIMITS.containersBytes) }))).toBe(true);
    expect(fitsUsage(usageRow({ containers: json(RECORDED_LIMITS.containersBytes + 1) }))).toBe(false);

    expect(fitsKeptLog(keptLogRow({ pod: key, finished_at: null }))).toBe(true);
    for (const field of ['namespace', 'pod', 'pod_uid', 'container', 'reason', 'finished_at'] as const)
      expect(fitsKeptLog(keptLogRow({ [field]: over })), field).toBe(false);
    expect(fitsKeptLog(keptLogRow({ lines: 'l'.repeat(RECORDED_LIMITS.linesBytes) }))).toBe(true);
    expect(fitsKeptLog(keptLogRow({ lines: 'l'.repeat(RECORDED_LIMITS.linesBytes + 1) }))).toBe(false);
  });
});

describe('recordedTablesProblem', () => {
  // The sizes as SQLite answers them for tables at and past their bounds; the rows' own check is
  // the file's (hostile-files.test-support.ts builds files whose tables are too large).
  const answering =
    (sizes: Partial<Record<RecordedTable, { n: number; bytes: number }>>) =>
    async <T>(sql: string): Promise<T[]> => {
      const table = TABLES.find((t) => sql === recordedSizeSql(t));
      if (table) return [(sizes[table] ?? { n: 0, bytes: 0 }) as T];
      return [];
    };

  it('takes tables up to their bounds, and names the first table past one', async () => {
    const full = {
      change_history: RECORDED_LIMITS.changes,
      usage_samples: RECORDED_LIMITS.usage,
      kept_logs: RECORDED_LIMITS.keptLogs,
    };
    const at = Object.fromEntries(
      TABLES.map((t) => [t, { n: full[t].rows, bytes: full[t].totalBytes }]),
    ) as Record<RecordedTable, { n: number; bytes: number }>;
    expect(await recordedTablesProblem(answering(at))).toBeUndefined();
    expect(await recordedTablesProblem(answering({ ...at, usage_samples: { n: 500_001, bytes: 0 } }))).toBe(
      'its usage_samples table has more than 500000 rows',
    );
    expect(
      await recordedTablesProblem(
        answering({ ...at, kept_logs: { n: 1, bytes: RECORDED_LIMITS.keptLogs.totalBytes + 1 } }),
      ),
    ).toBe('its kept_logs table is larger than a snapshot allows (256 MiB)');
    expect(
      await recordedTablesProblem(
        answering({ change_history: { n: 1, bytes: RECORDED_LIMITS.changes.totalBytes + 1 } }),
      ),
    ).toBe('its change_history table is larger than a snapshot allows (256 MiB)');
  });

  it('reads no more rows of a table than one past its bound', () => {
    expect(recordedSizeSql('change_history')).toMatch(/FROM change_history LIMIT 200001\)$/);
    expect(recordedSizeSql('kept_logs')).toMatch(/FROM kept_logs LIMIT 10001\)$/);
  });
});

describe('recordedTablesProblem on the tables themselves', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
  });
  afterEach(() => db.close());

  const V3 = SNAPSHOT_DDL_OF[3] as string;
  const RECORDED_DDL = V3.slice(V3.indexOf('CREATE TABLE change_history'));
  /** The format's tables, or with `loose` ones without types or checks, for values they refuse. */
  const tables = (loose = false) =>
    db.exec(
      loose
        ? RECORDED_DDL.replace(/ STRICT,?/g, '')
            .replace(/CHECK \((?:[^()]|\([^()]*\))*\)/g, '')
            .replace(/ NOT NULL/g, '')
        : RECORDED_DDL,
    );
  const insert = <T extends RecordedTable>(table: T, row: Parameters<typeof recordedValues<T>>[1]) =>
    db.prepare(recordedInsertSql(table)).run(...recordedValues(table, row));
  const problem = () => recordedTablesProblem(async <T>(sql: string) => db.prepare(sql).all() as T[]);

  it('finds nothing wrong with rows as a capture writes them', async () => {
    tables();
    insert('change_history', changeRow({ object: JSON.stringify({ metadata: { name: 'x' } }) }));
    insert('change_history', changeRow({ id: 2, patch: '[]' }));
    insert('usage_samples', usageRow());
    insert('usage_samples', usageRow({ name: 'n', containers: '{}' }));
    insert(
      'usage_samples',
      usageRow({
        name: 'm',
        containers: '{"a":{"cpuMillicores":1.5,"memoryBytes":0},"b":{"cpuMillicores":0,"memoryBytes":7}}',
      }),
    );
    insert('kept_logs', keptLogRow({ exit_code: null, finished_at: null }));
    expect(await problem()).toBeUndefined();
  });

  const changes: Array<[string, Partial<ChangeRow>, string]> = [
    [
      'a patch that is not JSON',
      { patch: '[{' },
      'the file is damaged (the change of deployment shop/checkout is not an RFC 6902 JSON Patch (a JSON array of objects) with a Kubernetes object or null as its object)',
    ],
    ['a patch that is an object', { patch: '{}' }, 'not an RFC 6902'],
    ['a patch of numbers', { patch: '[1]' }, 'not an RFC 6902'],
    ['an object without metadata', { object: '{"spec":{}}' }, 'not an RFC 6902'],
    ['an object whose metadata is text', { object: '{"metadata":"x"}' }, 'not an RFC 6902'],
    ['an object naming metadata twice', { object: '{"metadata":{},"metadata":{}}' }, 'not an RFC 6902'],
    ['an object that is not JSON', { object: '{' }, 'not an RFC 6902'],
    [
      'a patch over 8 MiB',
      { patch: `["${'x'.repeat(RECORDED_LIMITS.jsonBytes)}"]` },
      'the change of deployment shop/checkout is larger than a snapshot allows (8 MiB of patch and of object, 4096 bytes of summary)',
    ],
    [
      'an object over 8 MiB',
      { object: `{"metadata":{},"p":"${'x'.repeat(RECORDED_LIMITS.jsonBytes)}"}` },
      'larger than a snapshot allows',
    ],
    ['a summary over 4096 bytes', { summary: 's'.repeat(4097) }, 'larger than a snapshot allows'],
    [
      'a name over 253 bytes',
      { name: 'n'.repeat(254) },
      'a row of change_history has a key longer than 253 bytes (a Kubernetes name has at most 253)',
    ],
    ['a resource version over 253 bytes', { resource_version: '9'.repeat(254) }, 'key longer than 253'],
    ['a uid over 253 bytes', { uid: 'u'.repeat(254) }, 'key longer than 253'],
    ['a kind over 253 bytes', { kind: 'K'.repeat(254) }, 'key longer than 253'],
    [
      'a time before 1970',
      { time_ms: -1 },
      'the file is damaged (a row of change_history holds a time outside the years 1970 to 9999)',
    ],
    ['a time after 9999', { time_ms: RECORDED_LIMITS.maxMs + 1 }, 'outside the years'],
    ['a recorded_at after 9999', { recorded_at: RECORDED_LIMITS.maxMs + 1 }, 'outside the years'],
  ];
  for (const [what, over, message] of changes)
    it(`names a change with ${what}`, async () => {
      tables();
      insert('change_history', changeRow({ id: 1, name: 'fine' }));
      insert('change_history', changeRow({ id: 2, ...over }));
      expect(await problem()).toContain(message);
    });

  it('takes a change at the bounds', async () => {
    tables();
    insert(
      'change_history',
      changeRow({
        time_ms: 0,
        recorded_at: RECORDED_LIMITS.maxMs,
        name: 'n'.repeat(253),
        summary: 's'.repeat(4096),
      }),
    );
    expect(await problem()).toBeUndefined();
  });

  const looseChanges: Array<[string, Partial<Record<keyof ChangeRow, unknown>>]> = [
    ['a change that is none of the four', { change: 'exploded' }],
    // Loose columns keep their affinity: text that reads as a number would be stored as one.
    ['a time that is text', { time_ms: 'soon' }],
    ['a time that is a blob', { time_ms: new Uint8Array([1]) }],
    ['a recorded_at that is real', { recorded_at: 1.5 }],
    ['a name that is a blob', { name: new Uint8Array([110]) }],
    ['a patch that is a blob', { patch: new Uint8Array([91, 93]) }],
    ['an object that is a blob', { object: new Uint8Array([123, 125]) }],
    ['a summary that is null', { summary: null }],
  ];
  for (const [what, over] of looseChanges)
    it(`names ${what} as a value of the wrong type`, async () => {
      tables(true);
      const row = { ...changeRow(), ...over } as unknown as ChangeRow;
      db.prepare(recordedInsertSql('change_history')).run(
        ...(RECORDED_COLUMNS.change_history.map(
          (c) => (row as unknown as Record<string, unknown>)[c],
        ) as Array<string | number | null | Uint8Array>),
      );
      expect(await problem()).toBe(
        'the file is damaged (a row of change_history holds a value of the wrong type)',
      );
    });

  const usage: Array<[string, Partial<Record<keyof UsageRow, unknown>>, string, boolean?]> = [
    [
      'containers that are not JSON',
      { containers: 'cpu' },
      'the file is damaged (the usage sample of pod shop/checkout-1 is not a JSON object of containers, each an object with numbers as cpuMillicores and memoryBytes)',
    ],
    ['containers that are a list', { containers: '[]' }, 'not a JSON object of containers'],
    ['a container that is a number', { containers: '{"app":1}' }, 'not a JSON object of containers'],
    [
      'CPU as text',
      { containers: '{"app":{"cpuMillicores":"1","memoryBytes":1}}' },
      'not a JSON object of containers',
    ],
    [
      'memory as text',
      { containers: '{"app":{"cpuMillicores":1,"memoryBytes":"1"}}' },
      'not a JSON object of containers',
    ],
    ['no memory', { containers: '{"app":{"cpuMillicores":1}}' }, 'not a JSON object of containers'],
    ['no CPU', { containers: '{"app":{"memoryBytes":1}}' }, 'not a JSON object of containers'],
    [
      'memory null',
      { containers: '{"app":{"cpuMillicores":1,"memoryBytes":null}}' },
      'not a JSON object of containers',
    ],
    [
      'containers over 64 KiB',
      { containers: `{"${'c'.repeat(65_536)}":{}}` },
      'the usage sample of pod shop/checkout-1 is larger than a snapshot allows (65536 bytes of containers)',
    ],
    [
      'a node whose containers are over 64 KiB',
      { subject: 'node', namespace: '', name: 'n1', containers: `{"${'c'.repeat(65_536)}":{}}` },
      'the usage sample of node n1 is larger than a snapshot allows',
    ],
    [
      'a name over 253 bytes',
      { name: 'n'.repeat(254) },
      'a row of usage_samples has a key longer than 253 bytes',
    ],
    ['a namespace over 253 bytes', { namespace: 'n'.repeat(254) }, 'a row of usage_samples has a key longer'],
    [
      'a time after 9999',
      { time_ms: RECORDED_LIMITS.maxMs + 1 },
      'a row of usage_samples holds a time outside',
    ],
    [
      'a subject neither pod nor node',
      { subject: 'pv' },
      'a row of usage_samples holds a value of the wrong type',
      true,
    ],
    ['a negative resolution', { resolution_ms: -1 }, 'wrong type', true],
    ['a resolution that is text', { resolution_ms: '30s' }, 'wrong type', true],
    ['containers that are a blob', { containers: new Uint8Array([123, 125]) }, 'wrong type', true],
  ];
  for (const [what, over, message, loose] of usage)
    it(`names a usage sample with ${what}`, async () => {
      tables(loose);
      insert('usage_samples', usageRow({ name: 'fine' }));
      const row = { ...usageRow(), ...over } as unknown as UsageRow;
      db.prepare(recordedInsertSql('usage_samples')).run(
        ...(recordedValues('usage_samples', row) as Array<string | number | null | Uint8Array>),
      );
      expect(await problem()).toContain(message);
    });

  const kept: Array<[string, Partial<Record<keyof KeptLogRow, unknown>>, string, boolean?]> = [
    [
      'lines over 16 MiB',
      { lines: 'l'.repeat(RECORDED_LIMITS.linesBytes + 1) },
      'the kept log of shop/checkout-1 container app is larger than a snapshot allows (16 MiB of lines)',
    ],
    [
      'a pod uid over 253 bytes',
      { pod_uid: 'u'.repeat(254) },
      'a row of kept_logs has a key longer than 253 bytes',
    ],
    ['a finishedAt over 253 bytes', { finished_at: 't'.repeat(254) }, 'a row of kept_logs has a key longer'],
    ['a reason over 253 bytes', { reason: 'r'.repeat(254) }, 'a row of kept_logs has a key longer'],
    ['a finish before 1970', { finished_ms: -5 }, 'a row of kept_logs holds a time outside'],
    ['kept after 9999', { kept_at: RECORDED_LIMITS.maxMs + 1 }, 'a row of kept_logs holds a time outside'],
    ['a negative restart count', { restart_count: -1 }, 'a row of kept_logs holds a value of the wrong type'],
    ['a negative line count', { line_count: -1 }, 'wrong type'],
    ['negative bytes', { bytes: -1 }, 'wrong type'],
    ['an exit code that is text', { exit_code: 'one' }, 'wrong type', true],
    ['a finishedAt that is a blob', { finished_at: new Uint8Array([49]) }, 'wrong type', true],
    ['lines that are null', { lines: null }, 'wrong type', true],
    ['kept_at that is real', { kept_at: 1.5 }, 'wrong type', true],
  ];
  for (const [what, over, message, loose] of kept)
    it(`names a kept log with ${what}`, async () => {
      tables(loose);
      insert('kept_logs', keptLogRow({ id: 1, restart_count: 1 }));
      const row = { ...keptLogRow({ id: 2 }), ...over } as unknown as KeptLogRow;
      db.prepare(recordedInsertSql('kept_logs')).run(
        ...(recordedValues('kept_logs', row) as Array<string | number | null | Uint8Array>),
      );
      expect(await problem()).toContain(message);
    });

  it('names tables past their rows in order: changes, usage, kept logs', async () => {
    tables();
    expect(await problem()).toBeUndefined();
  });
});
