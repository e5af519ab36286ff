import { randomUUID } from 'node:crypto';
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { hashSecret, newSecret, REFRESH_TOKEN_PREFIX } from '../src-main/service/auth/secrets';
import { createService } from '../src-main/service/index';
import { silentLogger } from '../src-main/service/logger';
import { DATABASE_FILE } from '../src-main/service/storage/database';
import { percentile, table, type Verdict } from './stats';

/**
 * `--only auth`: refresh latency with an empty auth store against one holding 10,000 sessions and
 * 100,000 activity entries (the issue: with the JSON files, 392 sessions and a full log took
 * refresh p50 from 4.6 ms to 27.6 ms). Each refresh is a real POST /v1/auth/refresh over loopback
 * to a service on its data dir's database; both stores hold the same measured sessions, seeded
 * with known refresh tokens, one account and one forwarded address each so that no rate limit
 * applies. The service runs in this process: what differs between the two runs is the store.
 */

const DAY = 86_400_000;
const MEASURED = { warmup: 50, samples: 300 };

interface Seeded {
  tokens: string[];
}

const CLIENT = JSON.stringify({
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

/** Accounts and sessions for the measured refreshes, and (for the full store) the bulk. */
function seed(dataDir: string, bulk: { sessions: number; activity: number }): Seeded {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE));
  const now = Date.now();
  const tokens: string[] = [];
  db.exec('BEGIN');
  const account = db.prepare(
    "INSERT INTO accounts VALUES (?, ?, 'member', '[\"default\"]', 'scrypt$unused', ?, ?)",
  );
  // Columns named: later migrations add columns (6: refresh_grace), which stay at their default.
  const session = db.prepare(
    `INSERT INTO sessions (session_id, account_id, status, client, first_login_at, last_seen_at, expires_at,
       absolute_expires_at, ended_at, end_reason, refresh_hash, refresh_generation, refresh_rotated_at,
       refresh_previous_hash) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, NULL)`,
  );
  const token = db.prepare('INSERT INTO refresh_tokens VALUES (?, ?, ?)');
  const addSession = (accountId: string, hash: string, ended: boolean) => {
    const id = randomUUID();
    const at = now - Math.floor(Math.random() * 30 * DAY);
    session.run(
      id,
      accountId,
      ended ? 'logged_out' : 'active',
      CLIENT,
      at,
      at,
      now + 10 * DAY,
      now + 60 * DAY,
      ended ? at + 1000 : null,
      ended ? 'logout' : null,
      hash,
      at,
    );
    token.run(hash, id, 1);
    return id;
  };
  const total = MEASURED.warmup + MEASURED.samples;
  for (let i = 0; i < total; i++) {
    const id = randomUUID();
    account.run(id, `bench-${i}`, now, now);
    const t = newSecret(REFRESH_TOKEN_PREFIX);
    tokens.push(t);
    addSession(id, hashSecret(t), false);
  }
  const owners = Array.from({ length: 50 }, (_, i) => {
    const id = randomUUID();
    account.run(id, `bulk-${i}`, now, now);
    return id;
  });
  for (let i = 0; i < bulk.sessions; i++)
    addSession(owners[i % owners.length]!, hashSecret(newSecret(REFRESH_TOKEN_PREFIX)), i % 3 === 0);
  const entry = db.prepare(
    'INSERT INTO activity (activity_id, type, at, account_id, session_id, client, detail) VALUES (?, ?, ?, ?, ?, ?, NULL)',
  );
  const types = ['login', 'refresh', 'refresh', 'refresh', 'logout', 'api_key_used'];
  for (let i = 0; i < bulk.activity; i++) {
    entry.run(
      randomUUID(),
      types[i % types.length]!,
      now - Math.floor(Math.random() * 60 * DAY),
      owners[i % owners.length]!,
      randomUUID(),
      CLIENT,
    );
  }
  db.exec('COMMIT');
  db.close();
  return { tokens };
}

async function measure(dataDir: string, bulk: { sessions: number; activity: number }): Promise<number[]> {
  await mkdir(dataDir, { recursive: true });
  const config = {
    dataDir,
    contexts: [],
    logger: silentLogger(),
    adminPassword: 'bench-admin-password',
    auth: { geoipDb: false as const, trustProxy: ['127.0.0.1'], onAdminCreated: () => {} },
  };
  // The first start creates the database (schema, signing key, admin); the bulk goes in while it is closed.
  const first = createService(config);
  await first.auth.ready;
  await first.close();
  const { tokens } = seed(dataDir, bulk);

  const service = createService(config);
  const { url } = await service.listen(0, '127.0.0.1');
  try {
    const times: number[] = [];
    for (const [i, refreshToken] of tokens.entries()) {
      const t = performance.now();
      const res = await fetch(`${url}/v1/auth/refresh`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-forwarded-for': `10.1.${i >> 8}.${i & 255}` },
        body: JSON.stringify({ refreshToken }),
      });
      await res.arrayBuffer();
      const ms = performance.now() - t;
      if (res.status !== 200) throw new Error(`refresh answered ${res.status}`);
      if (i >= MEASURED.warmup) times.push(ms);
    }
    return times;
  } finally {
    await service.close();
  }
}

export async function benchAuthStore(
  dir: string,
  scale: { sessions: number; activity: number },
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<void> {
  const empty = await measure(join(dir, 'auth-empty'), { sessions: 0, activity: 0 });
  const full = await measure(join(dir, 'auth-full'), scale);
  const row = (name: string, xs: number[]) => ({
    store: name,
    'refresh p50': `${percentile(xs, 50).toFixed(2)} ms`,
    'refresh p95': `${percentile(xs, 95).toFixed(2)} ms`,
    samples: String(xs.length),
  });
  const ratio = percentile(full, 50) / percentile(empty, 50);
  console.log(`\nAuth store: POST /v1/auth/refresh, sequential, on the data dir's database\n`);
  console.log(
    table([
      row('empty', empty),
      row(
        `${scale.sessions.toLocaleString('en-US')} sessions, ${scale.activity.toLocaleString('en-US')} activity entries`,
        full,
      ),
    ]),
  );
  console.log(`\nfull / empty p50: ${ratio.toFixed(2)}`);
  verdicts.push({
    figure: `refresh p50, ${scale.sessions.toLocaleString('en-US')} sessions + ${scale.activity.toLocaleString('en-US')} activity vs empty`,
    measured: `${ratio.toFixed(2)}× (${percentile(full, 50).toFixed(2)} vs ${percentile(empty, 50).toFixed(2)} ms)`,
    target: '≤ 1.10×',
    pass: judge(ratio <= 1.1),
  });
}
