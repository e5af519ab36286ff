/**
 * The kinds table (kinds-table.ts): how a kind becomes a row and back, what a row may hold as the
 * check's SQL finds it (run here on databases built for each case, the table made loose where a
 * case needs a value STRICT would refuse), the table's size bounds, and the kinds of a file of
 * either version.
 */
import { DatabaseSync } from 'node:sqlite';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { NINE } from './capture-kinds';
import { SNAPSHOT_DDL, SNAPSHOT_DDL_OF } from './format';
import {
  KIND_INSERT_SQL,
  KINDS_LIMITS,
  KINDS_ROW_LIMIT,
  KINDS_ROWS_SQL,
  KINDS_SIZE_SQL,
  kindProblem,
  kindRow,
  kindRowBytes,
  kindsSizeProblem,
  readSnapshotKinds,
  type SnapshotKind,
} from './kinds-table';

const WIDGET: SnapshotKind = {
  resourceType: 'widget',
  plural: 'widgets',
  singular: 'widget',
  kind: 'Widget',
  group: 'example.dev',
  version: 'v2',
  namespaced: true,
  shortNames: ['wd'],
  categories: ['toys', 'all'],
  verbs: ['get', 'list', 'watch'],
  columns: [{ name: 'Ready', type: 'string', jsonPath: '.status.ready', priority: 0, description: 'Is it' }],
};
const GEAR: SnapshotKind = {
  resourceType: 'gear',
  plural: 'gears',
  singular: 'gear',
  kind: 'Gear',
  group: '',
  version: 'v1',
  namespaced: false,
  shortNames: [],
  categories: [],
  verbs: ['list', 'watch'],
};

describe('kindRow', () => {
  it("is the kind in the table's column order: JSON arrays, namespaced 1 or 0, columns null without a CRD", () => {
    expect(kindRow(WIDGET)).toEqual([
      'widget',
      'example.dev',
      'v2',
      'widgets',
      'widget',
      'Widget',
      1,
      '["get","list","watch"]',
      '["wd"]',
      '["toys","all"]',
      JSON.stringify(WIDGET.columns),
    ]);
    expect(kindRow(GEAR)).toEqual([
      'gear',
      '',
      'v1',
      'gears',
      'gear',
      'Gear',
      0,
      '["list","watch"]',
      '[]',
      '[]',
      null,
    ]);
    expect(kindRow({ ...GEAR, columns: [] })[10]).toBe('[]');
  });

  it('counts the bytes of its text values, as the check sums them', () => {
    const row = kindRow(GEAR);
    expect(kindRowBytes(GEAR)).toBe(
      row.filter((v): v is string => typeof v === 'string').reduce((n, v) => n + v.length, 0),
    );
    expect(kindRowBytes({ ...GEAR, kind: 'Gëar' })).toBe(kindRowBytes(GEAR) + 1);
  });
});

describe('kindProblem', () => {
  const key = (n: number) => 'k'.repeat(n);
  /** Columns whose JSON text is `bytes` long. */
  const columnsOf = (bytes: number) => {
    const overhead = JSON.stringify([{ name: '', type: 't', jsonPath: 'p', priority: 0 }]).length;
    return [{ name: key(bytes - overhead), type: 't', jsonPath: 'p', priority: 0 }];
  };

  it('takes a kind within every bound, up to each bound', () => {
    expect(kindProblem(WIDGET)).toBeUndefined();
    expect(kindProblem(GEAR)).toBeUndefined();
    for (const field of ['resourceType', 'group', 'version', 'plural', 'singular', 'kind'] as const)
      expect(kindProblem({ ...GEAR, [field]: key(253) }), field).toBeUndefined();
    // ["…"] is the text's length and 4 more.
    expect(kindProblem({ ...GEAR, verbs: [key(1020)] })).toBeUndefined();
    expect(Buffer.byteLength(kindRow({ ...GEAR, columns: columnsOf(16_384) })[10]!)).toBe(16_384);
    expect(kindProblem({ ...GEAR, columns: columnsOf(16_384) })).toBeUndefined();
  });

  it('names the first name longer than 253 bytes, the first as the table orders them', () => {
    for (const field of ['resourceType', 'group', 'version', 'plural', 'singular', 'kind'] as const)
      expect(kindProblem({ ...GEAR, [field]: key(254) }), field).toBe(
        `its name ${JSON.stringify(key(254))} is longer than 253 bytes`,
      );
    expect(kindProblem({ ...GEAR, group: 'g'.repeat(254), kind: 'K'.repeat(300) })).toMatch(/^its name "g+"/);
    // Bytes, not characters.
    expect(kindProblem({ ...GEAR, kind: 'ë'.repeat(127) })).toMatch(/longer than 253 bytes/);
  });

  it('names lists longer than 1,024 bytes, and columns longer than 16,384', () => {
    for (const field of ['verbs', 'shortNames', 'categories'] as const)
      expect(kindProblem({ ...GEAR, [field]: [key(1021)] }), field).toBe(
        'its verbs, short names or categories are longer than 1024 bytes',
      );
    expect(kindProblem({ ...GEAR, columns: columnsOf(16_385) })).toBe(
      'its printer columns are longer than 16384 bytes',
    );
  });
});

describe('kindsSizeProblem', () => {
  it('takes up to 10,000 rows and 8 MiB, and names which is over', () => {
    expect(kindsSizeProblem({ n: KINDS_LIMITS.rows, bytes: KINDS_LIMITS.totalBytes })).toBeUndefined();
    expect(kindsSizeProblem({ n: 0, bytes: 0 })).toBeUndefined();
    expect(kindsSizeProblem({ n: KINDS_LIMITS.rows + 1, bytes: 0 })).toBe(
      'its kinds table has more than 10000 rows',
    );
    expect(kindsSizeProblem({ n: 1, bytes: KINDS_LIMITS.totalBytes + 1 })).toBe(
      'its kinds table is larger than a snapshot allows (8 MiB)',
    );
  });
});

describe('the check’s SQL', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
  });
  afterEach(() => db.close());

  /** The format's table, or with `loose` one without types or checks, for values STRICT refuses. */
  const table = (loose = false) =>
    db.exec(
      loose
        ? 'CREATE TABLE kinds (resource_type, grp, version, resource, singular, kind, namespaced, verbs, short_names, categories, columns)'
        : (SNAPSHOT_DDL_OF[2] as string).slice((SNAPSHOT_DDL_OF[2] as string).indexOf('CREATE TABLE kinds')),
    );
  const insert = (...rows: unknown[][]) => {
    const s = db.prepare(KIND_INSERT_SQL);
    for (const r of rows) s.run(...(r as Array<string | number | null | Uint8Array>));
  };
  const problem = () => db.prepare(KINDS_ROWS_SQL).get() as { kind: string; problem: string } | undefined;
  const size = () => db.prepare(KINDS_SIZE_SQL).get() as { n: number; bytes: number };

  it('finds nothing wrong with kinds as the writer writes them', () => {
    table();
    insert(kindRow(WIDGET), kindRow(GEAR), kindRow({ ...GEAR, resourceType: 'cog', columns: [] }));
    expect(problem()).toBeUndefined();
  });

  it('sizes the table: its rows, and the bytes of every value, a null column counting none', () => {
    table();
    expect(size()).toEqual({ n: 0, bytes: 0 });
    insert(kindRow(WIDGET), kindRow(GEAR));
    expect(size()).toEqual({ n: 2, bytes: kindRowBytes(WIDGET) + kindRowBytes(GEAR) });
  });

  it('counts at most one row past the bound', () => {
    table();
    db.exec(
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${KINDS_LIMITS.rows + 50}) INSERT INTO kinds SELECT 'k'||x, '', 'v1', 'r', 's', 'K', 0, '[]', '[]', '[]', NULL FROM c`,
    );
    expect(size().n).toBe(KINDS_LIMITS.rows + 1);
  });

  it('names a value of the wrong type in any column', () => {
    const good = kindRow(GEAR) as unknown[];
    for (let i = 0; i < good.length; i++) {
      table(true);
      const bad = [...good];
      bad[i] = i === 6 ? 'yes' : i === 10 ? 7 : 1;
      insert(bad);
      expect(problem(), `column ${i}`).toMatchObject({ problem: 'type' });
      if (i > 0) expect(problem()?.kind).toBe('gear');
      db.exec('DROP TABLE kinds');
    }
    table(true);
    insert([...good.slice(0, 10), new Uint8Array([91, 93])]);
    expect(problem()?.problem).toBe('type');
  });

  it('names namespaced other than 0 or 1', () => {
    table(true);
    insert([...kindRow(GEAR).slice(0, 6), 2, ...kindRow(GEAR).slice(7)]);
    expect(problem()).toEqual({ kind: 'gear', problem: 'type' });
  });

  it('names a name over 253 bytes in any name column, and takes 253', () => {
    for (let i = 0; i < 6; i++) {
      table();
      const row = kindRow(GEAR) as unknown[];
      insert(row.map((v, j) => (j === i ? 'n'.repeat(253) : v)));
      expect(problem(), `column ${i}`).toBeUndefined();
      db.exec('DELETE FROM kinds');
      insert(row.map((v, j) => (j === i ? 'n'.repeat(254) : v)));
      expect(problem()?.problem, `column ${i}`).toBe('key');
      db.exec('DROP TABLE kinds');
    }
  });

  it('names lists over 1,024 bytes and columns over 16,384, and takes each at its bound', () => {
    const over = (column: number, bytes: number) => {
      table();
      const row = kindRow(GEAR) as unknown[];
      row[column] = `[${' '.repeat(bytes - 2)}]`;
      insert(row);
      const p = problem()?.problem;
      db.exec('DROP TABLE kinds');
      return p;
    };
    for (const column of [7, 8, 9]) {
      expect(over(column, 1_024), `column ${column}`).toBeUndefined();
      expect(over(column, 1_025), `column ${column}`).toBe('size');
    }
    expect(over(10, 16_384)).toBeUndefined();
    expect(over(10, 16_385)).toBe('size');
  });

  it('names lists that are not JSON arrays of text, and columns that are not a JSON array of objects', () => {
    const bad = (column: number, text: string) => {
      table();
      const row = kindRow(GEAR) as unknown[];
      row[column] = text;
      insert(row);
      const p = problem();
      db.exec('DROP TABLE kinds');
      return p;
    };
    for (const column of [7, 8, 9])
      for (const text of ['["list"', '"list"', '{"a":"list"}', '["list", 7]', '[["list"]]', '[null]'])
        expect(bad(column, text), `${column}: ${text}`).toEqual({ kind: 'gear', problem: 'json' });
    for (const text of ['[', '{}', '"x"', '[1]', '["Ready"]', '[{}, []]'])
      expect(bad(10, text), text).toEqual({ kind: 'gear', problem: 'json' });
    expect(bad(10, '[{}, {"name": 5}]')).toBeUndefined();
  });

  it('names the kind by the first 64 characters of its resource_type', () => {
    table();
    insert([`${'r'.repeat(100)}`, ...kindRow(GEAR).slice(1, 7), '7', ...kindRow(GEAR).slice(8)]);
    expect(problem()).toEqual({ kind: 'r'.repeat(64), problem: 'json' });
  });

  it('says in one line what a row too large may hold', () => {
    expect(KINDS_ROW_LIMIT).toBe('1024 bytes of each of verbs, short_names and categories, 16384 of columns');
  });
});

describe('readSnapshotKinds', () => {
  let db: DatabaseSync;
  beforeEach(() => {
    db = new DatabaseSync(':memory:');
    db.exec(SNAPSHOT_DDL);
  });
  afterEach(() => db.close());
  const insert = (...rows: unknown[][]) => {
    const s = db.prepare(KIND_INSERT_SQL);
    for (const r of rows) s.run(...(r as Array<string | number | null>));
  };

  it('gives a version-1 file the nine, as a snapshot served them, whatever the database holds', () => {
    insert(kindRow(WIDGET));
    const kinds = readSnapshotKinds(db, 1);
    expect(kinds).toEqual(NINE);
    expect(kinds.map((k) => k.resourceType)).toEqual([
      'cronjob',
      'daemonset',
      'deployment',
      'job',
      'namespace',
      'node',
      'pod',
      'service',
      'statefulset',
    ]);
    expect(kinds.find((k) => k.resourceType === 'pod')).toMatchObject({
      singular: 'pod',
      plural: 'pods',
      group: '',
      namespaced: true,
      verbs: ['get', 'list', 'watch'],
      categories: ['all'],
    });
  });

  it("gives a version-2 file its kinds table's kinds, ordered by resourceType, as they were written", () => {
    insert(kindRow(WIDGET), kindRow(GEAR));
    expect(readSnapshotKinds(db, 2)).toEqual([GEAR, WIDGET]);
    expect(readSnapshotKinds(db, 3)).toEqual([GEAR, WIDGET]);
  });

  it('reads at most the rows a table may have', () => {
    db.exec(
      `WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c WHERE x < ${KINDS_LIMITS.rows + 5}) INSERT INTO kinds SELECT printf('k%05d', x), '', 'v1', 'r', 's', 'K', 0, '[]', '[]', '[]', NULL FROM c`,
    );
    const kinds = readSnapshotKinds(db, 2);
    expect(kinds).toHaveLength(KINDS_LIMITS.rows);
    expect(kinds.at(-1)?.resourceType).toBe('k10000');
  });

  it('leaves out a printer column that is not of its shape, never the kind; a priority is 0 when absent', () => {
    const columns = JSON.stringify([
      { name: 'Ready', type: 'string', jsonPath: '.r' },
      { name: '', type: 'string', jsonPath: '.e' },
      { name: 'Age', type: 'date', jsonPath: '.a', priority: 1.5 },
      { name: 'Wide', type: 'string', jsonPath: '.w', priority: 1, description: 'd', extra: true },
      { type: 'string', jsonPath: '.n' },
      'Status',
    ]);
    insert([...kindRow(WIDGET).slice(0, 10), columns]);
    expect(readSnapshotKinds(db, 2)[0]!.columns).toStrictEqual([
      { name: 'Ready', type: 'string', jsonPath: '.r', priority: 0 },
      { name: 'Wide', type: 'string', jsonPath: '.w', priority: 1, description: 'd' },
    ]);
  });

  it('throws for a table that does not hold what the check let through (a file changed since)', () => {
    for (const [column, text] of [
      [7, '[7]'],
      [8, '{}'],
      [9, 'not json'],
      [10, '{"name":"x"}'],
    ] as const) {
      db.exec('DELETE FROM kinds');
      const row = kindRow(WIDGET) as unknown[];
      row[column] = text;
      insert(row);
      expect(() => readSnapshotKinds(db, 2), `${column}: ${text}`).toThrow();
    }
  });
});
