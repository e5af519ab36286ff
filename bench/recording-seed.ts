import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { DATABASE_FILE } from '../src-main/service/storage/database';

/**
 * `count` recorded changes written straight into a stopped service's change_history (issue 27's
 * 1,000,000-change reads), SQLite or PostgreSQL alike, for the objects the cluster really has.
 *
 * Rules:
 * - Inserted in a shuffled order (not the order the reads answer in), so no read is fast because
 *   ids happen to follow time; every time_ms is distinct, so the expected order of any page is
 *   known without knowing how the reads break ties.
 * - Each object's rows in time order are a chain as the recorder writes one: the first is `seen`
 *   with the whole object, then `updated` rows with a patch, the whole object again every 20th.
 * - Columns are named; resource_version is the row's sequence number (unique), which the bench
 *   uses to check that a page holds exactly the expected rows.
 * - Compact: the rows are typed arrays until they are written, and written in batches.
 */

export interface SeedRef {
  resourceType: string;
  kind: string;
  namespace: string;
  name: string;
}

export interface SeedPlan {
  /** Rows in all. */
  count: number;
  /** Every object changes; the first ones listed get `extra` rows more. */
  refs: SeedRef[];
  /** Rows more for some refs (by index in refs), and the window [from, to] they fall in. */
  extra: Array<{ ref: number; rows: number; fromMs: number; toMs: number }>;
  /** The window of every other row. */
  fromMs: number;
  toMs: number;
}

export interface SeededRow {
  ref: number;
  timeMs: number;
  rv: number;
  change: 'seen' | 'updated';
}

export interface Seeded {
  /** Rows as the reads should see them: newest first. */
  rows: SeededRow[];
  refs: SeedRef[];
}

const WHOLE_EVERY = 20;
const BATCH = 1_000;

/** A small seeded PRNG (mulberry32): the same plan gives the same rows. */
function prng(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Which object and when, for every row; times distinct; rows newest first. */
export function planRows(plan: SeedPlan): Seeded {
  const rand = prng(27);
  const { count } = plan;
  const refOf = new Int32Array(count);
  const times = new Float64Array(count);
  let i = 0;
  for (const e of plan.extra)
    for (let k = 0; k < e.rows && i < count; k++, i++) {
      refOf[i] = e.ref;
      times[i] = e.fromMs + rand() * (e.toMs - e.fromMs);
    }
  for (; i < count; i++) {
    refOf[i] = Math.floor(rand() * plan.refs.length);
    times[i] = plan.fromMs + rand() * (plan.toMs - plan.fromMs);
  }
  // Distinct whole milliseconds: sort, then push each past the one before it.
  const order = Array.from({ length: count }, (_, k) => k).sort((a, b) => times[a]! - times[b]!);
  let last = -Infinity;
  for (const k of order) {
    const t = Math.max(Math.floor(times[k]!), last + 1);
    times[k] = t;
    last = t;
  }
  const seenBefore = new Int32Array(plan.refs.length);
  const rows: SeededRow[] = new Array(count);
  for (const [pos, k] of order.entries()) {
    const ref = refOf[k]!;
    const nth = seenBefore[ref]!++;
    rows[count - 1 - pos] = { ref, timeMs: times[k]!, rv: k + 1, change: nth === 0 ? 'seen' : 'updated' };
  }
  return { rows, refs: plan.refs };
}

const COLUMNS = [
  'cluster_id',
  'time_ms',
  'resource_type',
  'kind',
  'namespace',
  'name',
  'uid',
  'change',
  'resource_version',
  'patch',
  'summary',
  'object',
  'recorded_at',
] as const;

type Value = string | number | null;

function wholeObject(ref: SeedRef, rv: number): string {
  return JSON.stringify({
    apiVersion: ref.kind === 'Deployment' || ref.kind === 'ReplicaSet' ? 'apps/v1' : 'v1',
    kind: ref.kind,
    metadata: {
      name: ref.name,
      ...(ref.namespace ? { namespace: ref.namespace } : {}),
      uid: `uid-${ref.resourceType}-${ref.namespace}-${ref.name}`,
      labels: { app: ref.name.split('-')[0], 'bench.skiff.dev/seeded': 'true' },
      annotations: { 'bench.skiff.dev/revision': String(rv) },
    },
    spec: {
      containers: [
        {
          name: 'app',
          image: `registry.example/app:1.4.${rv % 100}`,
          resources: { requests: { cpu: '100m' } },
        },
      ],
    },
  });
}

/** The row's values in COLUMNS order; each nth `updated` row is an annotation or an image change. */
function values(clusterId: string, s: Seeded, r: SeededRow, nth: number): Value[] {
  const ref = s.refs[r.ref]!;
  const image = r.rv % 3 === 0;
  const patch =
    r.change === 'seen'
      ? '[]'
      : image
        ? `[{"op":"replace","path":"/spec/containers/0/image","value":"registry.example/app:1.4.${r.rv % 100}"}]`
        : `[{"op":"replace","path":"/metadata/annotations/bench.skiff.dev~1revision","value":"${r.rv}"}]`;
  const summary =
    r.change === 'seen'
      ? 'seen'
      : image
        ? `image app: 1.4.${(r.rv + 99) % 100} → 1.4.${r.rv % 100}`
        : 'metadata.annotations';
  const whole = r.change === 'seen' || nth % WHOLE_EVERY === 0;
  return [
    clusterId,
    r.timeMs,
    ref.resourceType,
    ref.kind,
    ref.namespace,
    ref.name,
    `uid-${ref.resourceType}-${ref.namespace}-${ref.name}`,
    r.change,
    String(r.rv),
    patch,
    summary,
    whole ? wholeObject(ref, r.rv) : null,
    r.timeMs,
  ];
}

/** Rows in the shuffled order they are inserted in, each with its place in its object's chain. */
function* insertionOrder(clusterId: string, s: Seeded): Generator<Value[]> {
  const nth = new Map<SeededRow, number>();
  const per = new Int32Array(s.refs.length);
  for (let k = s.rows.length - 1; k >= 0; k--) nth.set(s.rows[k]!, per[s.rows[k]!.ref]!++);
  const perm = Int32Array.from({ length: s.rows.length }, (_, k) => k);
  const rand = prng(1027);
  for (let k = perm.length - 1; k > 0; k--) {
    const j = Math.floor(rand() * (k + 1));
    [perm[k], perm[j]] = [perm[j]!, perm[k]!];
  }
  for (const k of perm) {
    const r = s.rows[k]!;
    yield values(clusterId, s, r, nth.get(r)!);
  }
}

/** Seeds the SQLite file of a stopped service's data dir. */
export function seedSqlite(dataDir: string, clusterId: string, s: Seeded): void {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec('PRAGMA busy_timeout = 10000');
    // A big page cache: the four indexes take rows in random order.
    db.exec('PRAGMA cache_size = -262144');
    db.exec('PRAGMA synchronous = OFF');
    const insert = db.prepare(
      `INSERT INTO change_history (${COLUMNS.join(', ')}) VALUES (${COLUMNS.map(() => '?').join(', ')})`,
    );
    let n = 0;
    db.exec('BEGIN');
    // Whatever a first start recorded is not part of the plan: the table holds the seeded rows only.
    db.prepare('DELETE FROM change_history WHERE cluster_id = ?').run(clusterId);
    for (const v of insertionOrder(clusterId, s)) {
      insert.run(...v);
      if (++n % 100_000 === 0) {
        db.exec('COMMIT');
        db.exec('BEGIN');
      }
    }
    db.exec('COMMIT');
    db.exec('ANALYZE');
    db.exec('PRAGMA wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** One value in COPY's text format: \N for null, backslash, tab and line breaks escaped. */
function copyText(v: Value): string {
  if (v === null) return '\\N';
  return String(v).replace(/[\\\t\n\r]/g, (c) =>
    c === '\\' ? '\\\\' : c === '\t' ? '\\t' : c === '\n' ? '\\n' : '\\r',
  );
}

/** Seeds the PostgreSQL database at `url` (the stopped service's), through COPY. */
export async function seedPostgres(url: string, clusterId: string, s: Seeded): Promise<void> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql`DELETE FROM change_history WHERE cluster_id = ${clusterId}`;
    // Rows into a table without its indexes, then the indexes built once, sorted, exactly as the
    // migration defined them (read back from pg_indexes): a minute less than COPY into four
    // B-trees in random order, and the same indexes in the end.
    const indexes = await sql<{ name: string; def: string }[]>`
      SELECT indexname AS name, indexdef AS def FROM pg_indexes
      WHERE tablename = 'change_history' AND indexname NOT LIKE '%_pkey'`;
    for (const i of indexes) await sql.unsafe(`DROP INDEX ${i.name}`);
    const copy = await sql.unsafe(`COPY change_history (${COLUMNS.join(', ')}) FROM STDIN`).writable();
    const done = new Promise<void>((resolve, reject) => {
      copy.once('finish', resolve);
      copy.once('error', reject);
    });
    let chunk: string[] = [];
    for (const v of insertionOrder(clusterId, s)) {
      chunk.push(`${v.map(copyText).join('\t')}\n`);
      if (chunk.length === BATCH) {
        if (!copy.write(chunk.join(''))) await new Promise((r) => copy.once('drain', r));
        chunk = [];
      }
    }
    copy.end(chunk.join(''));
    await done;
    await sql`SET maintenance_work_mem = '256MB'`;
    for (const i of indexes) await sql.unsafe(i.def);
    await sql`ANALYZE change_history`;
  } finally {
    await sql.end({ timeout: 5 });
  }
}
