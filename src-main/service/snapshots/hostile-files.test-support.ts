import { DatabaseSync } from 'node:sqlite';
import { type META, objectJson, writeSnapshot } from './skiff-file.test-support';

/**
 * Test support: hostile `.skiff` files, each a good small snapshot changed the way the red team
 * (issue 22 §1) or a careful attacker would change it, built with node:sqlite when a test asks
 * (never checked in), with what the check must say of it. The unit tests check them directly,
 * the HTTP tests upload them, the bench times /v1/health while they are uploaded.
 */

/** Runs SQL on a written file with SQLite's defensive mode off, as a file's author could. */
export function rewrite(path: string, sql: string): void {
  const db = new DatabaseSync(path, { defensive: false });
  try {
    db.exec(sql);
  } finally {
    db.close();
  }
}

const ENDLESS = 'WITH RECURSIVE c(x) AS (SELECT 1 UNION ALL SELECT x+1 FROM c)';

const event = (uid: string, json = '') =>
  [
    uid,
    'shop',
    '2026-03-01T11:00:00Z',
    false,
    json ||
      JSON.stringify({
        apiVersion: 'v1',
        kind: 'Event',
        metadata: { name: `web.${uid}`, namespace: 'shop', uid },
        involvedObject: { kind: 'Pod', name: 'web', namespace: 'shop', uid: 'pod-web' },
        reason: 'BackOff',
        message: 'back-off restarting',
        type: 'Warning',
        count: 1,
        lastTimestamp: '2026-03-01T11:00:00Z',
      }),
  ] as [string, string, string, boolean, string];

/** A good small snapshot: a few pods, one event, one metric. */
export function writeBase(path: string, meta: Partial<typeof META> = {}): void {
  writeSnapshot(
    path,
    {
      objects: ['web', 'api', 'db'].map((n) => ['pod', 'shop', n, objectJson('v1', 'Pod', 'shop', n)]),
      events: [event('u-1')],
      metrics: [['pod', 'shop', 'web', JSON.stringify({ metadata: { name: 'web', namespace: 'shop' } })]],
    },
    meta,
  );
}

export interface HostileFile {
  what: string;
  build(path: string): void;
  /** What the refusal says. */
  detail: RegExp;
}

const changed =
  (sql: string, meta: Partial<typeof META> = {}) =>
  (path: string) => {
    writeBase(path, meta);
    if (sql) rewrite(path, sql);
  };

const withMeta = (key: string, value: string) =>
  changed(`UPDATE meta SET value = '${value.replace(/'/g, "''")}' WHERE key = '${key}'`);

const MiB = 2 ** 20;

/** A good change_history row's values (2026-03-01T11:50:00Z), for SQL that breaks one part of it. */
const CHANGE =
  "1, 1772365800000, 'deployment', 'Deployment', 'shop', 'checkout', 'u', 'updated', '7', '[]', 'image', NULL, 1772365800000";

export const HOSTILE_FILES: readonly HostileFile[] = [
  {
    what: 'objects replaced by a view that never ends (the red team’s file)',
    build: changed(
      `ALTER TABLE objects RENAME TO o; CREATE VIEW objects AS ${ENDLESS} SELECT 'pod' kind,'shop' namespace,'p'||x name,'{"metadata":{}}' json FROM c;`,
    ),
    detail: /it holds view "objects", which a snapshot does not have/,
  },
  {
    what: 'meta replaced by a view that never ends',
    build: changed(
      `ALTER TABLE meta RENAME TO m; CREATE VIEW meta AS ${ENDLESS} SELECT 'k'||x key, printf('%.*c', 1000, 'v') value FROM c;`,
    ),
    detail: /it holds view "meta", which a snapshot does not have/,
  },
  {
    what: 'a trigger',
    build: changed(
      'CREATE TRIGGER grow AFTER INSERT ON gaps BEGIN INSERT INTO gaps SELECT * FROM gaps; END;',
    ),
    detail: /it holds trigger "grow"/,
  },
  {
    what: 'a view beside the tables',
    build: changed(`CREATE VIEW pods AS SELECT * FROM objects WHERE kind = 'pod';`),
    detail: /it holds view "pods"/,
  },
  {
    what: 'a table of its own',
    build: changed('CREATE TABLE notes (text TEXT);'),
    detail: /it holds table "notes"/,
  },
  {
    what: 'an index of its own',
    build: changed('CREATE INDEX objects_by_json ON objects (json);'),
    detail: /it holds index "objects_by_json"/,
  },
  {
    what: 'a column computed when read',
    build: changed(
      `DROP TABLE objects; CREATE TABLE objects (kind TEXT NOT NULL, namespace TEXT NOT NULL, name TEXT NOT NULL, json TEXT NOT NULL, big TEXT GENERATED ALWAYS AS (printf('%.*c', 100000000, 'x')) VIRTUAL, PRIMARY KEY (kind, namespace, name)) STRICT, WITHOUT ROWID;`,
    ),
    detail: /its table objects is not as the snapshot format defines it/,
  },
  {
    what: 'a virtual table in place of objects',
    build: changed(
      'DROP TABLE objects; CREATE VIRTUAL TABLE objects USING fts5(kind, namespace, name, json);',
    ),
    detail: /it holds table "objects_\w+", which a snapshot does not have/,
  },
  {
    what: "ANALYZE's statistics",
    build: changed('ANALYZE;'),
    detail: /it holds table "sqlite_stat1"/,
  },
  {
    what: 'a WAL-mode database',
    build: changed('PRAGMA journal_mode = WAL;'),
    detail: /it is a WAL-mode database/,
  },
  {
    what: 'a context of 5 MB',
    build: withMeta('context', 'c'.repeat(5_000_000)),
    detail: /meta\.context is longer than 1024 bytes/,
  },
  {
    what: 'schemaVersion 0',
    build: withMeta('schemaVersion', '0'),
    detail: /meta\.schemaVersion is 0; versions start at 1/,
  },
  {
    what: 'a negative schemaVersion',
    build: withMeta('schemaVersion', '-1'),
    detail: /meta\.schemaVersion is not a whole number/,
  },
  {
    what: 'a takenAt before any date',
    build: withMeta('takenAt', '-271821-04-20T00:00:00Z'),
    detail: /meta\.takenAt is not a time/,
  },
  {
    what: 'a takenAt past any date',
    build: withMeta('takenAt', '+275760-09-13T00:00:00Z'),
    detail: /meta\.takenAt is not a time/,
  },
  {
    what: 'an object of 9 MiB',
    build: changed(
      `INSERT INTO objects VALUES ('pod', 'shop', 'big', '{"metadata":{},"pad":"' || printf('%.*c', ${9 * MiB}, 'x') || '"}');`,
    ),
    detail: /the pod shop\/big is larger than a snapshot allows \(8 MiB\)/,
  },
  {
    what: 'a name longer than any Kubernetes name',
    build: changed(
      `INSERT INTO objects VALUES ('pod', 'shop', printf('%.*c', 300, 'n'), '{"metadata":{}}');`,
    ),
    detail: /a row of objects has a key longer than 253 bytes/,
  },
  {
    what: 'a value of another type than its column’s',
    // objects made loose for one insert of a blob, then STRICT again in its text.
    build: (path) => {
      const schema = (from: string, to: string) =>
        `PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '${from}', '${to}') WHERE name = 'objects';`;
      writeBase(path);
      rewrite(path, schema(') STRICT, WITHOUT ROWID', ') WITHOUT ROWID'));
      rewrite(
        path,
        `INSERT INTO objects VALUES ('pod', 'shop', 'blob', x'7b7d'); ${schema(') WITHOUT ROWID', ') STRICT, WITHOUT ROWID')}`,
      );
    },
    detail: /a row of objects holds a value of the wrong type/,
  },
  {
    // SQLite would read the first metadata, JSON.parse the last.
    what: 'an object naming metadata twice',
    build: changed(`INSERT INTO objects VALUES ('pod', 'shop', 'twice', '{"metadata":{},"metadata":5}');`),
    detail: /the file is damaged \(the pod shop\/twice is not a JSON object\)/,
  },
  {
    what: 'a metric that is not a JSON object',
    build: changed(`INSERT INTO metrics VALUES ('node', '', 'n1', '[1]');`),
    detail: /the file is damaged \(the node metrics n1 is not a JSON object\)/,
  },
  {
    what: 'a version-1 file holding the kinds table of version 2',
    build: withMeta('schemaVersion', '1'),
    detail:
      /it holds table "kinds", which a snapshot does not have \(only the tables meta, objects, events, logs, metrics, gaps and their indexes\)/,
  },
  {
    what: 'a version-2 file without the kinds table',
    build: changed('DROP TABLE kinds;'),
    detail: /it has no table kinds$/,
  },
  {
    what: 'a kinds table of its own making',
    build: changed(
      'DROP TABLE kinds; CREATE TABLE kinds (resource_type TEXT PRIMARY KEY, json TEXT) WITHOUT ROWID;',
    ),
    detail: /its table kinds is not as the snapshot format defines it/,
  },
  {
    what: 'an index on the kinds table',
    build: changed('CREATE INDEX kinds_by_kind ON kinds (kind);'),
    detail: /it holds index "kinds_by_kind"/,
  },
  {
    what: 'more kinds than a snapshot holds',
    build: changed(
      `${ENDLESS.replace('SELECT x+1 FROM c', 'SELECT x+1 FROM c WHERE x < 10001')} INSERT INTO kinds SELECT 'k'||x, 'g', 'v1', 'ks'||x, 'k'||x, 'K', 1, '[]', '[]', '[]', NULL FROM c;`,
    ),
    detail: /its kinds table has more than 10000 rows/,
  },
  {
    what: 'kinds of 9 MiB in all',
    build: changed(
      `${ENDLESS.replace('SELECT x+1 FROM c', 'SELECT x+1 FROM c WHERE x < 600')} INSERT INTO kinds SELECT 'k'||x, 'g', 'v1', 'ks'||x, 'k'||x, 'K', 1, '[]', '[]', '[]', '[' || printf('%.*c', ${16 * 1024 - 2}, ' ') || ']' FROM c;`,
    ),
    detail: /its kinds table is larger than a snapshot allows \(8 MiB\)/,
  },
  {
    what: 'a kind whose verbs are longer than a snapshot allows',
    build: changed(
      `INSERT INTO kinds VALUES ('widget', 'example.dev', 'v1', 'widgets', 'widget', 'Widget', 1, '[' || printf('%.*c', 1024, ' ') || ']', '[]', '[]', NULL);`,
    ),
    detail:
      /the kind widget is larger than a snapshot allows \(1024 bytes of each of verbs, short_names and categories, 16384 of columns\)/,
  },
  {
    what: 'a kind whose name is longer than any Kubernetes name',
    build: changed(
      `INSERT INTO kinds VALUES ('widget', printf('%.*c', 300, 'g'), 'v1', 'widgets', 'widget', 'Widget', 1, '[]', '[]', '[]', NULL);`,
    ),
    detail: /a row of kinds has a key longer than 253 bytes/,
  },
  {
    what: 'a kind whose verbs are not a JSON array of text',
    build: changed(
      `INSERT INTO kinds VALUES ('widget', 'example.dev', 'v1', 'widgets', 'widget', 'Widget', 1, '["list", 7]', '[]', '[]', NULL);`,
    ),
    detail:
      /the file is damaged \(the kind widget is not JSON arrays of text \(verbs, short_names, categories\) and of objects \(columns\)\)/,
  },
  {
    what: 'a kind whose printer columns are not objects',
    build: changed(
      `INSERT INTO kinds VALUES ('widget', 'example.dev', 'v1', 'widgets', 'widget', 'Widget', 1, '[]', '[]', '[]', '["Ready"]');`,
    ),
    detail: /the file is damaged \(the kind widget is not JSON arrays/,
  },
  {
    what: 'a kind namespaced neither 0 nor 1',
    build: changed(
      `PRAGMA ignore_check_constraints = ON; INSERT INTO kinds VALUES ('widget', 'example.dev', 'v1', 'widgets', 'widget', 'Widget', 2, '[]', '[]', '[]', NULL);`,
    ),
    detail: /a row of kinds holds a value of the wrong type/,
  },
  // Version 3: what Skiff had recorded (recorded-tables.ts).
  {
    what: 'a recorded change whose patch is not JSON',
    build: changed(`INSERT INTO change_history VALUES (${CHANGE.replace("'[]'", "'[{'")});`),
    detail: /the file is damaged \(the change of deployment shop\/checkout is not an RFC 6902 JSON Patch/,
  },
  {
    what: 'a recorded change whose patch is an object, not a list of operations',
    build: changed(`INSERT INTO change_history VALUES (${CHANGE.replace("'[]'", `'{"op":"add"}'`)});`),
    detail: /the change of deployment shop\/checkout is not an RFC 6902 JSON Patch/,
  },
  {
    what: 'a recorded change whose patch holds something other than operations',
    build: changed(`INSERT INTO change_history VALUES (${CHANGE.replace("'[]'", "'[1]'")});`),
    detail: /the change of deployment shop\/checkout is not an RFC 6902 JSON Patch/,
  },
  {
    what: 'a recorded change whose object names metadata twice',
    build: changed(
      `INSERT INTO change_history VALUES (${CHANGE.replace('NULL', `'{"metadata":{},"metadata":5}'`)});`,
    ),
    detail:
      /the change of deployment shop\/checkout is not an RFC 6902 JSON Patch \(a JSON array of objects\) with a Kubernetes object or null/,
  },
  {
    what: 'a recorded change whose object is not JSON',
    build: changed(`INSERT INTO change_history VALUES (${CHANGE.replace('NULL', "'{'")});`),
    detail: /the change of deployment shop\/checkout is not/,
  },
  {
    what: 'a recorded change of 9 MiB',
    build: changed(
      `INSERT INTO change_history VALUES (${CHANGE.replace("'[]'", `'[{"op":"add","path":"/x","value":"' || printf('%.*c', ${9 * MiB}, 'x') || '"}]'`)});`,
    ),
    detail:
      /the change of deployment shop\/checkout is larger than a snapshot allows \(8 MiB of patch and of object, 4096 bytes of summary\)/,
  },
  {
    what: 'a recorded change whose summary is a page long',
    build: changed(
      `INSERT INTO change_history VALUES (${CHANGE.replace("'image'", "printf('%.*c', 4097, 's')")});`,
    ),
    detail: /the change of deployment shop\/checkout is larger than a snapshot allows/,
  },
  {
    what: 'a recorded change neither created, updated, deleted nor seen',
    build: changed(
      `PRAGMA ignore_check_constraints = ON; INSERT INTO change_history VALUES (${CHANGE.replace("'updated'", "'exploded'")});`,
    ),
    detail: /a row of change_history holds a value of the wrong type/,
  },
  {
    what: 'a recorded change at a time before 1970',
    build: changed(`INSERT INTO change_history VALUES (${CHANGE.replace('1772365800000', '-1')});`),
    detail: /a row of change_history holds a time outside the years 1970 to 9999/,
  },
  {
    what: 'a recorded change whose name is longer than any Kubernetes name',
    build: changed(
      `INSERT INTO change_history VALUES (${CHANGE.replace("'checkout'", "printf('%.*c', 300, 'n')")});`,
    ),
    detail: /a row of change_history has a key longer than 253 bytes/,
  },
  {
    what: 'more recorded changes than a snapshot holds',
    build: changed(
      `${ENDLESS.replace('SELECT x+1 FROM c', 'SELECT x+1 FROM c WHERE x < 200001')} INSERT INTO change_history SELECT x, 1772365800000, 'pod', 'Pod', 'shop', 'p'||x, 'u', 'updated', '1', '[]', '', NULL, 1772365800000 FROM c;`,
    ),
    detail: /its change_history table has more than 200000 rows/,
  },
  {
    what: 'a usage sample whose containers are not JSON',
    build: changed(`INSERT INTO usage_samples VALUES ('pod', 'shop', 'web', 1772365800000, 30000, 'cpu');`),
    detail: /the file is damaged \(the usage sample of pod shop\/web is not a JSON object of containers/,
  },
  {
    what: 'a usage sample whose CPU is text',
    build: changed(
      `INSERT INTO usage_samples VALUES ('pod', 'shop', 'web', 1772365800000, 30000, '{"app":{"cpuMillicores":"250","memoryBytes":1}}');`,
    ),
    detail: /the usage sample of pod shop\/web is not a JSON object of containers/,
  },
  {
    what: 'a usage sample of something neither a pod nor a node',
    build: changed(
      `PRAGMA ignore_check_constraints = ON; INSERT INTO usage_samples VALUES ('volume', 'shop', 'web', 1772365800000, 30000, '{}');`,
    ),
    detail: /a row of usage_samples holds a value of the wrong type/,
  },
  {
    what: 'a usage sample of 65 KiB',
    build: changed(
      `INSERT INTO usage_samples VALUES ('node', '', 'n1', 1772365800000, 30000, '{"' || printf('%.*c', 66000, 'c') || '":{}}');`,
    ),
    detail: /the usage sample of node n1 is larger than a snapshot allows \(65536 bytes of containers\)/,
  },
  {
    what: 'a kept log of 17 MiB',
    build: changed(
      `INSERT INTO kept_logs VALUES (1, 'shop', 'web', 'u', 'app', 0, NULL, 1772365800000, 1, 'Error', printf('%.*c', ${17 * MiB}, 'l'), 1, 1, 1772365800000);`,
    ),
    detail: /the kept log of shop\/web container app is larger than a snapshot allows \(16 MiB of lines\)/,
  },
  {
    what: 'a kept log whose exit code is text',
    build: (path) => {
      const schema = (from: string, to: string) =>
        `PRAGMA writable_schema = ON; UPDATE sqlite_schema SET sql = replace(sql, '${from}', '${to}') WHERE name = 'kept_logs';`;
      writeBase(path);
      rewrite(path, schema('kept_at INTEGER NOT NULL\n  ) STRICT', 'kept_at INTEGER NOT NULL\n  )'));
      rewrite(
        path,
        `INSERT INTO kept_logs VALUES (1, 'shop', 'web', 'u', 'app', 0, NULL, 1772365800000, 'one', 'Error', '', 0, 0, 1772365800000); ${schema('kept_at INTEGER NOT NULL\n  )', 'kept_at INTEGER NOT NULL\n  ) STRICT')}`,
      );
    },
    detail: /a row of kept_logs holds a value of the wrong type/,
  },
  {
    what: 'a kept log kept after the year 9999',
    build: changed(
      `INSERT INTO kept_logs VALUES (1, 'shop', 'web', 'u', 'app', 0, NULL, 1772365800000, 1, 'Error', '', 0, 0, 253402300800000);`,
    ),
    detail: /a row of kept_logs holds a time outside the years 1970 to 9999/,
  },
  {
    what: 'an index on a recorded table',
    build: changed('CREATE INDEX changes_by_name ON change_history (name);'),
    detail: /it holds index "changes_by_name"/,
  },
  {
    what: 'more event rows that cannot be read than a snapshot may leave out',
    build: changed(
      `${ENDLESS.replace('SELECT x+1 FROM c', 'SELECT x+1 FROM c WHERE x < 10001')} INSERT INTO events SELECT 'bad-'||x, 'shop', '2026-03-01T11:00:00Z', 0, '{' FROM c;`,
    ),
    detail: /more than 10000 of its event rows cannot be read/,
  },
];
