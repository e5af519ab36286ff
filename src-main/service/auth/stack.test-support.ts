import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { createService, type Service, type ServiceConfig } from '../index';
import type { ContextSource } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { DATABASE_FILE } from '../storage/database';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import type { AuthOptions } from './options';

/** Test support for the auth integration tests (not itself a test). */

export const T0 = Date.parse('2026-03-01T09:00:00Z');

export class FakeClock {
  constructor(public t = T0) {}
  now = () => this.t;
  advance(ms: number) {
    this.t += ms;
  }
}

export interface Answer<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: T;
}

export interface AuthStack {
  url: string;
  port: number;
  service: Service;
  clock: FakeClock;
  dataDir: string;
  /** A raw HTTP request, so tests control every header (Host and Origin included). */
  call<T = unknown>(
    method: string,
    path: string,
    opts?: {
      headers?: Record<string, string>;
      body?: unknown;
      rawBody?: string;
      /** The loopback address the request comes from (127.0.0.2…), as another machine's would. */
      localAddress?: string;
    },
  ): Promise<Answer<T>>;
  login(
    username?: string,
    password?: string,
    userAgent?: string,
    headers?: Record<string, string>,
  ): Promise<Tokens>;
  /** Stops the service but keeps the data dir, for restart tests. */
  stop(): Promise<void>;
  close(): Promise<void>;
}

export interface Tokens {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  auth: { sub: string; sid: string; jti: string; iat: number; exp: number };
  bearer: Record<string, string>;
}

export const FAST_HASH = 10;

export async function startAuthStack(
  opts: {
    auth?: AuthOptions;
    contexts?: ContextSource[];
    dataDir?: string;
    clock?: FakeClock;
    config?: Partial<ServiceConfig>;
  } = {},
): Promise<AuthStack> {
  const clock = opts.clock ?? new FakeClock();
  const dataDir = opts.dataDir ?? (await mkdtemp(join(tmpdir(), 'skiff-auth-')));
  const service = createService({
    contexts: opts.contexts ?? [],
    dataDir,
    logger: silentLogger(),
    now: clock.now,
    adminPassword: TEST_ADMIN_PASSWORD,
    auth: { passwordCost: FAST_HASH, onAdminCreated: () => {}, ...opts.auth },
    ...opts.config,
  });
  const removeDataDir = () => (opts.dataDir ? undefined : rm(dataDir, { recursive: true, force: true }));
  const listening = await service.listen(0, '127.0.0.1').catch(async (err: unknown) => {
    // A service that cannot start fails its test but leaves no folder behind.
    await service.close().finally(removeDataDir);
    throw err;
  });
  const { url } = listening;
  const port = Number(new URL(url).port);

  const call: AuthStack['call'] = (method, path, o = {}) =>
    new Promise((resolve, reject) => {
      const headers: Record<string, string> = { host: `127.0.0.1:${port}`, ...o.headers };
      let payload: string | undefined = o.rawBody;
      if (o.body !== undefined) {
        payload = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      if (payload !== undefined) headers['content-length'] = String(Buffer.byteLength(payload));
      const { localAddress } = o;
      const target = { host: '127.0.0.1', port, method, path, headers, setHost: false, localAddress };
      const req = request(target, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const contentType = res.headers['content-type'] ?? '';
          const json = contentType.includes('json') && text !== '';
          const body: unknown = json ? JSON.parse(text) : text;
          try {
            // Every answer is checked against its operation's result schema (or the problem schema).
            checkAnswer(method, path, res.statusCode ?? 0, contentType, body);
          } catch (err) {
            reject(err);
            return;
          }
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: body as never });
        });
      });
      req.on('error', reject);
      req.end(payload);
    });

  return {
    url,
    port,
    service,
    clock,
    dataDir,
    call,
    async login(username = 'admin', password = TEST_ADMIN_PASSWORD, userAgent = 'curl/8.5.0', headers = {}) {
      const res = await call<Omit<Tokens, 'bearer'>>('POST', '/v1/auth/login', {
        body: { username, password },
        headers: { 'user-agent': userAgent, ...headers },
      });
      if (res.status !== 200) throw new Error(`login answered ${res.status}: ${JSON.stringify(res.body)}`);
      return { ...res.body, bearer: { authorization: `Bearer ${res.body.accessToken}` } };
    },
    stop: () => service.close(),
    async close() {
      await service.close().finally(removeDataDir);
    },
  };
}

export const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36';
export const SAFARI_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1';

/** Every byte of every file in the data dir (the database and its WAL included), as text to search. */
export function dataDirText(dataDir: string): string {
  return readdirSync(dataDir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => readFileSync(join(dataDir, e.name), 'latin1'))
    .join('\n');
}

/** Rows of the data dir's database, read as another process would (read-only, WAL included). */
export function queryDataDir<T>(dataDir: string, sql: string): T[] {
  const db = new DatabaseSync(join(dataDir, DATABASE_FILE), { readOnly: true });
  try {
    return db.prepare(sql).all() as T[];
  } finally {
    db.close();
  }
}
