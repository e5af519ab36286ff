import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { SNAPSHOT_DDL, SNAPSHOT_DDL_OF } from './format';
import { metaTableProblem, SCHEMA_ROWS, SCHEMA_SQL, type SchemaRow, schemaProblem } from './schema';

/**
 * What a file's schema may be (schema.ts), on the entries of `sqlite_schema` as SQLite gives them
 * for databases built here: exactly the format's, or one line naming the first thing that differs.
 */

function entries(ddl: string): SchemaRow[] {
  const db = new DatabaseSync(':memory:');
  try {
    db.exec(ddl);
    return db.prepare(SCHEMA_SQL).all(SCHEMA_ROWS) as unknown as SchemaRow[];
  } finally {
    db.close();
  }
}

const FORMAT = entries(SNAPSHOT_DDL);
const swap = (table: string, ddl: string) =>
  FORMAT.filter((r) => r.tbl_name !== table).concat(entries(ddl).filter((r) => r.tbl_name === table));

describe('schemaProblem', () => {
  it("takes the format's own schema, in any order, and with its white space changed", () => {
    expect(FORMAT.map((r) => r.name)).toEqual([
      'meta',
      'sqlite_autoindex_meta_1',
      'objects',
      'events',
      'sqlite_autoindex_events_1',
      'events_by_time',
      'logs',
      'metrics',
      'gaps',
      'kinds',
      'change_history',
      'usage_samples',
      'kept_logs',
    ]);
    expect(SCHEMA_ROWS).toBe(FORMAT.length + 1);
    expect(schemaProblem(FORMAT)).toBeUndefined();
    expect(schemaProblem([...FORMAT].reverse())).toBeUndefined();
    const spaced = FORMAT.map((r) => ({
      ...r,
      sql: typeof r.sql === 'string' ? `\n ${r.sql.replace(/ /g, '\t  ')} ` : r.sql,
    }));
    expect(schemaProblem(spaced)).toBeUndefined();
  });

  it('names a view or a trigger before any other entry too many, then the first one', () => {
    const view = {
      type: 'view',
      name: 'objects',
      tbl_name: 'objects',
      sql: 'CREATE VIEW objects AS SELECT 1',
    };
    const renamed = FORMAT.map((r) => (r.name === 'objects' ? { ...r, name: 'o', tbl_name: 'o' } : r));
    expect(schemaProblem([...renamed, view])).toBe(
      'it holds view "objects", which a snapshot does not have (only the tables meta, objects, events, logs, metrics, gaps, kinds, change_history, usage_samples, kept_logs and their indexes)',
    );
    const trigger = { type: 'trigger', name: 't', tbl_name: 'gaps', sql: 'CREATE TRIGGER t …' };
    const table = { type: 'table', name: 'notes', tbl_name: 'notes', sql: 'CREATE TABLE notes (x)' };
    expect(schemaProblem([...FORMAT, table, trigger])).toMatch(/^it holds trigger "t", /);
    expect(schemaProblem([...FORMAT, table])).toMatch(/^it holds table "notes", /);
    const long = { ...table, name: 'n'.repeat(500) };
    expect(schemaProblem([...FORMAT, long])).toMatch(new RegExp(`^it holds table "${'n'.repeat(64)}", `));
    expect(schemaProblem([...FORMAT, { ...table, type: 'x'.repeat(40) }])).toMatch(
      new RegExp(`^it holds ${'x'.repeat(16)} "notes", `),
    );
  });

  it('names the first entry missing, and the first one changed', () => {
    expect(schemaProblem(FORMAT.filter((r) => r.name !== 'logs'))).toBe('it has no table logs');
    expect(schemaProblem(FORMAT.filter((r) => r.name !== 'events_by_time'))).toBe(
      'it has no index events_by_time',
    );
    expect(
      schemaProblem(
        swap(
          'events',
          SNAPSHOT_DDL.replace(
            'CREATE INDEX events_by_time ON events (last_timestamp DESC, uid)',
            'CREATE INDEX events_by_time ON events (uid)',
          ),
        ),
      ),
    ).toBe('its index events_by_time is not as the snapshot format defines it');
    expect(
      schemaProblem(
        swap(
          'logs',
          'CREATE TABLE logs (namespace TEXT, pod TEXT, container TEXT, previous INTEGER, line_count INTEGER, text TEXT)',
        ),
      ),
    ).toBe('its table logs is not as the snapshot format defines it');
    const otherTable = FORMAT.map((r) => (r.name === 'events_by_time' ? { ...r, tbl_name: 'logs' } : r));
    expect(schemaProblem(otherTable)).toBe(
      'its index events_by_time is not as the snapshot format defines it',
    );
    const noSql = FORMAT.map((r) => (r.name === 'gaps' ? { ...r, sql: null } : r));
    expect(schemaProblem(noSql)).toBe('its table gaps is not as the snapshot format defines it');
  });
});

describe('schemaProblem for a version', () => {
  const V1 = entries(SNAPSHOT_DDL_OF[1]!);
  const V2 = entries(SNAPSHOT_DDL_OF[2]!);
  const RECORDED = ['change_history', 'usage_samples', 'kept_logs'];

  it("takes exactly that version's schema: version 1 without the kinds table, version 2 with it", () => {
    expect(V1.map((r) => r.name)).not.toContain('kinds');
    expect(V2.filter((r) => r.name !== 'kinds')).toEqual(V1);
    expect(schemaProblem(V1, 1)).toBeUndefined();
    expect(schemaProblem(V2, 2)).toBeUndefined();
    expect(schemaProblem(V2, 1)).toBe(
      'it holds table "kinds", which a snapshot does not have (only the tables meta, objects, events, logs, metrics, gaps and their indexes)',
    );
    expect(schemaProblem(V1, 2)).toBe('it has no table kinds');
  });

  it('version 3 is version 2 and the recorded tables, and only version 3 has them', () => {
    expect(FORMAT.filter((r) => !RECORDED.includes(r.name as string))).toEqual(V2);
    expect(schemaProblem(FORMAT, 3)).toBeUndefined();
    expect(schemaProblem(FORMAT, 2)).toBe(
      'it holds table "change_history", which a snapshot does not have (only the tables meta, objects, events, logs, metrics, gaps, kinds and their indexes)',
    );
    expect(schemaProblem(V2, 3)).toBe('it has no table change_history');
    expect(
      schemaProblem(
        FORMAT.filter((r) => r.name !== 'kept_logs'),
        3,
      ),
    ).toBe('it has no table kept_logs');
    expect(
      schemaProblem(
        swap(
          'usage_samples',
          'CREATE TABLE usage_samples (subject TEXT, namespace TEXT, name TEXT, time_ms INTEGER, resolution_ms INTEGER, containers TEXT)',
        ),
        3,
      ),
    ).toBe('its table usage_samples is not as the snapshot format defines it');
  });

  it('without a version takes either version, and says what is wrong against the current one', () => {
    expect(schemaProblem(V1)).toBeUndefined();
    expect(schemaProblem(FORMAT)).toBeUndefined();
    const view = { type: 'view', name: 'v', tbl_name: 'v', sql: 'CREATE VIEW v AS SELECT 1' };
    expect(schemaProblem([...V1, view])).toMatch(
      /^it holds view "v", .*gaps, kinds, change_history, usage_samples, kept_logs and their indexes\)$/,
    );
    expect(schemaProblem(V2)).toBeUndefined();
    expect(schemaProblem(V1.filter((r) => r.name !== 'logs'))).toBe('it has no table logs');
  });

  it('compares a version it does not know with the current one', () => {
    expect(schemaProblem(FORMAT, 99)).toBeUndefined();
    expect(schemaProblem(V1, 99)).toBe('it has no table kinds');
    expect(schemaProblem(V2, 99)).toBe('it has no table change_history');
  });

  it('names a kinds table that is not the format’s', () => {
    const loose = swap(
      'kinds',
      'CREATE TABLE kinds (resource_type TEXT PRIMARY KEY, json TEXT) WITHOUT ROWID',
    );
    expect(schemaProblem(loose, 3)).toBe('its table kinds is not as the snapshot format defines it');
    const indexed = [
      ...FORMAT,
      {
        type: 'index',
        name: 'kinds_by_kind',
        tbl_name: 'kinds',
        sql: 'CREATE INDEX kinds_by_kind ON kinds (kind)',
      },
    ];
    expect(schemaProblem(indexed, 3)).toMatch(/^it holds index "kinds_by_kind"/);
  });
});

describe('metaTableProblem', () => {
  it("takes the format's meta whatever else the file holds", () => {
    expect(metaTableProblem(FORMAT)).toBeUndefined();
    expect(metaTableProblem(FORMAT.filter((r) => r.tbl_name === 'meta'))).toBeUndefined();
    expect(
      metaTableProblem([
        ...FORMAT.filter((r) => r.tbl_name === 'meta'),
        { type: 'view', name: 'v', tbl_name: 'v', sql: '' },
      ]),
    ).toBeUndefined();
  });

  it('says there is no meta table, or names what stands in its place', () => {
    expect(metaTableProblem(FORMAT.filter((r) => r.tbl_name !== 'meta'))).toBe(
      'it has no meta table (an SQLite database, but not a snapshot)',
    );
    expect(
      metaTableProblem([
        { type: 'view', name: 'meta', tbl_name: 'meta', sql: 'CREATE VIEW meta AS SELECT 1' },
      ]),
    ).toMatch(/^it holds view "meta", which a snapshot does not have/);
    const trigger = { type: 'trigger', name: 'on_meta', tbl_name: 'meta', sql: 'CREATE TRIGGER on_meta …' };
    expect(metaTableProblem([...FORMAT, trigger])).toMatch(/^it holds trigger "on_meta"/);
    expect(metaTableProblem(entries('CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)'))).toBe(
      'its table meta is not as the snapshot format defines it',
    );
    expect(metaTableProblem(FORMAT.filter((r) => r.name !== 'sqlite_autoindex_meta_1'))).toBe(
      'it has no index sqlite_autoindex_meta_1',
    );
    const index = {
      type: 'index',
      name: 'meta_by_value',
      tbl_name: 'meta',
      sql: 'CREATE INDEX meta_by_value ON meta (value)',
    };
    expect(metaTableProblem([...FORMAT, index])).toMatch(/^it holds index "meta_by_value"/);
    const otherTable = FORMAT.map((r) =>
      r.name === 'sqlite_autoindex_meta_1' ? { ...r, sql: 'CREATE INDEX x ON meta (key)' } : r,
    );
    expect(metaTableProblem(otherTable)).toBe(
      'its index sqlite_autoindex_meta_1 is not as the snapshot format defines it',
    );
  });
});
