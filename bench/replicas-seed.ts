import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import postgres from 'postgres';
import { hashSecret, newSecret, REFRESH_TOKEN_PREFIX } from '../src-main/service/auth/secrets';
import { DATABASE_FILE } from '../src-main/service/storage/database';

/**
 * Sessions for the refresh figure, written straight into a stopped service's database, SQLite
 * or PostgreSQL alike: `measured` accounts with one active session each and a known refresh
 * token (one account each, so no per-account refresh limit applies), and `bulk` more sessions
 * spread over 50 accounts, a third of them ended, as bench/auth-store.ts seeds its store.
 *
 * Rules: columns are named (a later migration may add columns with defaults; the order is not
 * relied on); the same rows go into either backend; 10,000 sessions are a few round trips on
 * PostgreSQL (batched multi-row inserts), one transaction on SQLite.
 */

const DAY = 86_400_000;
const BATCH = 1_000;

export const CLIENT = JSON.stringify({
  clientType: 'browser',
  device: { type: 'desktop', vendor: null, model: null },
  browser: { name: 'Firefox', version: '126.0' },
  os: { name: 'Linux', version: null },
  location: {
    kind: 'private',
    label: 'Private network',
    city: null,
    region: null,
    country: null,
    countryCode: null,
    network: '10.0.0.0/8',
  },
});

type Row = Record<string, string | number | null>;
interface Rows {
  accounts: Row[];
  sessions: Row[];
  refresh_tokens: Row[];
}

function rows(measured: number, bulk: number): { rows: Rows; tokens: string[] } {
  const now = Date.now();
  const out: Rows = { accounts: [], sessions: [], refresh_tokens: [] };
  const tokens: string[] = [];
  const account = (username: string) => {
    const id = randomUUID();
    out.accounts.push({
      account_id: id,
      username,
      role: 'member',
      workspaces: '["default"]',
      password_hash: 'scrypt$unused',
      created_at: now,
      password_changed_at: now,
    });
    return id;
  };
  const session = (accountId: string, hash: string, ended: boolean) => {
    const id = randomUUID();
    const at = now - Math.floor(Math.random() * 30 * DAY);
    out.sessions.push({
      session_id: id,
      account_id: accountId,
      status: ended ? 'logged_out' : 'active',
      client: CLIENT,
      first_login_at: at,
      last_seen_at: at,
      expires_at: now + 10 * DAY,
      absolute_expires_at: now + 60 * DAY,
      ended_at: ended ? at + 1000 : null,
      end_reason: ended ? 'logout' : null,
      refresh_hash: hash,
      refresh_generation: 1,
      refresh_rotated_at: at,
      refresh_previous_hash: null,
    });
    out.refresh_tokens.push({ hash, session_id: id, generation: 1 });
  };
  for (let i = 0; i < measured; i++) {
    const t = newSecret(REFRESH_TOKEN_PREFIX);
    tokens.push(t);
    session(account(`bench-${i}`), hashSecret(t), false);
  }
  const owners = Array.from({ length: 50 }, (_, i) => account(`bulk-${i}`));
  for (let i = 0; i < bulk; i++)
    session(owners[i % owners.length]!, hashSecret(newSecret(REFRESH_TOKEN_PREFIX)), i % 3 === 0);
  return { rows: out, tokens };
}

const TABLES = ['accounts', 'sessions', 'refresh_tokens'] as const;

/** Seeds the SQLite file of `dataDir`; answers the measured refresh tokens. */
export function seedSqlite(dataDir: string, measured: number, bulk: number): string[] {
  const { rows: all, tokens } = rows(measured, bulk);
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  try {
    db.exec('BEGIN');
    for (const t of TABLES) {
      const cols = Object.keys(all[t][0]!);
      const insert = db.prepare(
        `INSERT INTO ${t} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
      );
      for (const r of all[t]) insert.run(...cols.map((c) => r[c]!));
    }
    db.exec('COMMIT');
  } finally {
    db.close();
  }
  return tokens;
}

/** Seeds the PostgreSQL database at `url`; answers the measured refresh tokens. */
export async function seedPostgres(url: string, measured: number, bulk: number): Promise<string[]> {
  const { rows: all, tokens } = rows(measured, bulk);
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await sql.begin(async (tx) => {
      for (const t of TABLES)
        for (let i = 0; i < all[t].length; i += BATCH)
          await tx`INSERT INTO ${tx(t)} ${tx(all[t].slice(i, i + BATCH))}`;
    });
  } finally {
    await sql.end({ timeout: 5 });
  }
  return tokens;
}
