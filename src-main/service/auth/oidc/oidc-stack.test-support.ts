/**
 * Skiff signing people in with the test provider, over real HTTP: the service on a loopback port
 * that is also its --public-url (the redirect URI the provider has registered), the provider of
 * provider.test-support.ts, and a cookie-jar browser between them. Rules:
 * - The service's clock is a FakeClock that starts at the real time (the provider's tokens carry
 *   real iat/exp); tests move it to drive expiry and the recheck, never the provider's.
 * - Every answer is checked against its operation's contract (checkAnswer), as the other stacks do.
 * - Nothing here checks anything about sign-in itself: the tests do.
 */
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Simulator, startSimulator } from '@skiff/kube-simulator';
import { type LogEntry, recordingLogger } from '../../http/recording-logger.test-support';
import { createService, type Service, type ServiceConfig } from '../../index';
import { loadContexts } from '../../kube/kubeconfig';
import { checkAnswer } from '../../test-support/contract-check.test-support';
import { TEST_ADMIN_PASSWORD } from '../../test-support/login.test-support';
import type { AuthOptions } from '../options';
import { FAST_HASH, FakeClock, queryDataDir } from '../stack.test-support';
import { type ProviderLogin, signInAtProvider, TestBrowser } from './browser.test-support';
import type { OidcOptions } from './options';
import {
  ADMIN_GROUP,
  OTHER_CLIENT_ID,
  OTHER_CLIENT_SECRET,
  SKIFF_CLIENT_ID,
  SKIFF_CLIENT_SECRET,
  startTestProvider,
  type TestProvider,
  type TestProviderOptions,
} from './provider.test-support';

export const CALLBACK_PATH = '/v1/auth/oidc/callback';
export const SIM_CONTEXT = 'sim-oidc';

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
}

export interface SignedIn {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  bearer: Record<string, string>;
}

export interface OidcStack {
  url: string;
  op: TestProvider;
  service: Service;
  clock: FakeClock;
  dataDir: string;
  logs: LogEntry[];
  sim?: Simulator;
  /** {url}/v1/auth/oidc/callback: where the provider sends browsers back. */
  callbackUrl: string;
  call<T = unknown>(
    method: string,
    path: string,
    opts?: { headers?: Record<string, string>; body?: unknown },
  ): Promise<Answer<T>>;
  /**
   * From Skiff's login redirect through the provider's pages, up to (not into) the callback.
   * `browser` keeps the skiff_oidc cookie the login set.
   */
  toCallback(browser: TestBrowser, who: ProviderLogin): Promise<URL>;
  /**
   * The browser follows the callback. As a script (default) a refusal is problem+json; as a
   * navigation (`navigate: true`) it is a redirect to /?oidc_error=.
   */
  callback(browser: TestBrowser, callback: URL, opts?: { navigate?: boolean }): Promise<Answer<unknown>>;
  /** POST /v1/auth/oidc/exchange, with `browser`'s skiff_oidc cookie when given (the page's browser). */
  exchange(code: string, headers?: Record<string, string>, browser?: TestBrowser): Promise<Answer<unknown>>;
  /** The whole sign-in, as the web page does it, for tests about what comes after. */
  signIn(login: string, opts?: { userAgent?: string }): Promise<SignedIn>;
  close(): Promise<void>;
}

export interface OidcStackOptions {
  provider?: TestProviderOptions;
  oidc?: Partial<OidcOptions>;
  auth?: AuthOptions;
  config?: Partial<ServiceConfig>;
  /** Start the embedded simulator and give the service its kubeconfig (context SIM_CONTEXT). */
  simulator?: boolean;
  /** The provider is down when the service starts (its port closed; `op.up()` brings it back). */
  providerDown?: boolean;
}

/** A loopback port free now (the service listens on it, so --public-url is known before it starts). */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export async function startOidcStack(opts: OidcStackOptions = {}): Promise<OidcStack> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const callbackUrl = url + CALLBACK_PATH;
  const op = await startTestProvider({
    clients: [
      { clientId: SKIFF_CLIENT_ID, clientSecret: SKIFF_CLIENT_SECRET, redirectUris: [callbackUrl] },
      { clientId: OTHER_CLIENT_ID, clientSecret: OTHER_CLIENT_SECRET, redirectUris: [callbackUrl] },
    ],
    ...opts.provider,
  });
  if (opts.providerDown) await op.down();
  const dir = await mkdtemp(join(tmpdir(), 'skiff-oidc-'));
  let sim: Simulator | undefined;
  let service: Service | undefined;
  const close = async () => {
    try {
      await service?.close();
    } finally {
      await sim?.close();
      await op.close();
      await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    let contexts: ServiceConfig['contexts'] = [];
    if (opts.simulator) {
      sim = await startSimulator({ tickMs: false });
      const kubeconfigPath = join(dir, 'kubeconfig');
      await writeFile(kubeconfigPath, sim.kubeconfigYaml(SIM_CONTEXT));
      contexts = loadContexts([kubeconfigPath]);
    }
    const clock = new FakeClock(Date.now());
    const log = recordingLogger();
    service = createService({
      contexts,
      dataDir: join(dir, 'data'),
      logger: log.logger,
      now: clock.now,
      adminPassword: TEST_ADMIN_PASSWORD,
      publicUrl: url,
      auth: {
        passwordCost: FAST_HASH,
        onAdminCreated: () => {},
        secretKey: randomBytes(32).toString('base64'),
        publicUrl: url,
        oidc: {
          issuer: op.issuer,
          clientId: SKIFF_CLIENT_ID,
          clientSecret: SKIFF_CLIENT_SECRET,
          name: 'Test IdP',
          adminGroups: [ADMIN_GROUP],
          allowInsecureRequests: true,
          ...opts.oidc,
        },
        ...opts.auth,
      },
      ...opts.config,
    });
    await service.listen(port, '127.0.0.1');
    const running = service;

    const call: OidcStack['call'] = async (method, path, o = {}) => {
      const headers: Record<string, string> = { ...o.headers };
      let body: string | undefined;
      if (o.body !== undefined) {
        body = JSON.stringify(o.body);
        headers['content-type'] ??= 'application/json';
      }
      const res = await fetch(url + path, { method, headers, body, redirect: 'manual' });
      const text = await res.text();
      const contentType = res.headers.get('content-type') ?? '';
      const parsed: unknown = contentType.includes('json') && text !== '' ? JSON.parse(text) : text;
      checkAnswer(method, new URL(path, url).pathname, res.status, contentType, parsed);
      return { status: res.status, headers: res.headers, body: parsed as never };
    };

    const toCallback: OidcStack['toCallback'] = (browser, who) =>
      signInAtProvider(browser, `${url}/v1/auth/oidc/login?returnTo=%2F`, op.issuer, callbackUrl, who);

    const callback: OidcStack['callback'] = async (browser, target, o = {}) => {
      const headers: Record<string, string> = o.navigate
        ? { 'sec-fetch-mode': 'navigate', accept: 'text/html' }
        : { accept: 'application/json' };
      const page = await browser.request(target, { headers });
      const contentType = page.headers.get('content-type') ?? '';
      const parsed: unknown =
        contentType.includes('json') && page.body !== '' ? JSON.parse(page.body) : page.body;
      checkAnswer('GET', CALLBACK_PATH, page.status, contentType, parsed);
      return { status: page.status, headers: page.headers, body: parsed };
    };

    const exchange: OidcStack['exchange'] = (code, headers = {}, browser) => {
      const cookie = browser?.cookie(`${url}/v1/auth/oidc/exchange`, 'skiff_oidc');
      return call('POST', '/v1/auth/oidc/exchange', {
        body: { code },
        headers: cookie === undefined ? headers : { ...headers, cookie: `skiff_oidc=${cookie}` },
      });
    };

    return {
      url,
      op,
      service: running,
      clock,
      dataDir: join(dir, 'data'),
      logs: log.entries,
      ...(sim ? { sim } : {}),
      callbackUrl,
      call,
      toCallback,
      callback,
      exchange,
      async signIn(login, o = {}) {
        const browser = new TestBrowser(o.userAgent);
        const back = await toCallback(browser, { login });
        const answer = await callback(browser, back, { navigate: true });
        const location = answer.headers.get('location') ?? '';
        const code = new URL(location, url).searchParams.get('oidc_code');
        if (answer.status !== 302 || !code) {
          throw new Error(
            `the callback answered ${answer.status} ${location}: ${JSON.stringify(answer.body)}`,
          );
        }
        const res = await exchange(code, o.userAgent ? { 'user-agent': o.userAgent } : {}, browser);
        const tokens = res.body as Omit<SignedIn, 'bearer'>;
        if (res.status !== 200)
          throw new Error(`the exchange answered ${res.status}: ${JSON.stringify(res.body)}`);
        return { ...tokens, bearer: { authorization: `Bearer ${tokens.accessToken}` } };
      },
      close,
    };
  } catch (err) {
    await close().catch(() => {});
    throw err;
  }
}

/** The oidc_error code of a refusal answered to a navigation (a 302 to /?oidc_error=). */
export function oidcErrorOf(answer: Answer<unknown>): string | null {
  const location = answer.headers.get('location');
  return location ? new URL(location, 'http://x.invalid').searchParams.get('oidc_error') : null;
}

/** The problem's code (its `type` ends with it) of a refusal answered as problem+json. */
export function problemCode(answer: Answer<unknown>): string | undefined {
  const type = (answer.body as { type?: string; code?: string } | undefined)?.type ?? '';
  return (answer.body as { code?: string }).code ?? type.split('/').pop();
}

/** A bearer of the local break-glass administrator (password login). */
export async function adminBearer(stack: OidcStack): Promise<Record<string, string>> {
  const res = await stack.call<{ accessToken: string }>('POST', '/v1/auth/login', {
    body: { username: 'admin', password: TEST_ADMIN_PASSWORD },
  });
  if (res.status !== 200) throw new Error(`admin login answered ${res.status}: ${JSON.stringify(res.body)}`);
  return { authorization: `Bearer ${res.body.accessToken}` };
}

/** The usernames of the oidc accounts, and how many sessions were ever started (rows in the database). */
export async function signedInSoFar(stack: OidcStack): Promise<{ oidcAccounts: string[]; sessions: number }> {
  const accounts = queryDataDir<{ username: string }>(
    stack.dataDir,
    "SELECT username FROM accounts WHERE source = 'oidc' ORDER BY username",
  );
  const [count] = queryDataDir<{ n: number }>(stack.dataDir, 'SELECT count(*) AS n FROM sessions');
  return { oidcAccounts: accounts.map((a) => a.username), sessions: Number(count?.n ?? 0) };
}

/** The log entry of the last refused sign-in, if any. */
export function lastRefusal(stack: OidcStack): LogEntry | undefined {
  return stack.logs.filter((e) => e.msg === 'oidc sign-in refused').at(-1);
}

/** Polls `probe` until it answers true (a state, not a time: the timeout is only a backstop). */
export async function waitUntil(
  probe: () => Promise<boolean>,
  what: string,
  timeoutMs = 60_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
