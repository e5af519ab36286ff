/**
 * The sign-ins under way and the one-time codes that end them, in the database so that any
 * replica can finish what another started. Rules:
 * - Only hashes of the state, the browser cookie and the code are stored: the database alone
 *   cannot finish a sign-in or take a session.
 * - Both are single use by a conditional DELETE: of two requests presenting the same state or
 *   code (a replay, or two replicas), exactly one deletes the row and goes on; the other is refused.
 * - A flow lives 10 minutes, a code 60 seconds, on the service's clock; expired rows are refused
 *   like unknown ones and swept.
 * - A code's row holds the login's tokens sealed (AES-256-GCM) with a key derived from the code
 *   and the browser cookie of its sign-in, so only the browser that signed in, holding the code,
 *   can open them: a code sent to someone else (login CSRF: `/?oidc_code=` of the attacker's own
 *   sign-in, which the page exchanges on load) opens nothing.
 */
import { createCipheriv, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { type LoginResult, loginResult } from '../../../../src-shared/contract/auth-models';
import type { StorageBackend } from '../../storage/backend';
import { hashSecret } from '../secrets';

export const FLOW_TTL_MS = 10 * 60_000;
export const CODE_TTL_MS = 60_000;
export const CODE_PREFIX = 'skiff_oc_';

export interface Flow {
  state: string;
  /** The HttpOnly cookie that binds the flow to the browser that started it. */
  browser: string;
  nonce: string;
  codeVerifier: string;
  returnTo: string;
}

const random = () => randomBytes(32).toString('base64url');

export function newFlow(returnTo: string): Flow {
  return { state: random(), browser: random(), nonce: random(), codeVerifier: random(), returnTo };
}

export async function saveFlow(db: StorageBackend, flow: Flow, now: number): Promise<void> {
  await db.run(
    `INSERT INTO oidc_flows (state_hash, browser_hash, nonce, code_verifier, return_to, created_at, expires_at)
     VALUES ($state, $browser, $nonce, $verifier, $returnTo, $now, $expires)`,
    {
      state: hashSecret(flow.state),
      browser: hashSecret(flow.browser),
      nonce: flow.nonce,
      verifier: flow.codeVerifier,
      returnTo: flow.returnTo,
      now,
      expires: now + FLOW_TTL_MS,
    },
  );
}

export type FlowRefusal = 'unknown' | 'expired' | 'other_browser';

/**
 * The flow of `state`, taken (deleted) whatever the outcome, so a state is tried once: a refusal
 * for another browser also spends it, since whoever holds the state without the cookie is not the
 * user who started it.
 */
export async function takeFlow(
  db: StorageBackend,
  state: string,
  browser: string | undefined,
  now: number,
): Promise<Flow | FlowRefusal> {
  const stateHash = hashSecret(state);
  const row = await db.get<{
    browser_hash: string;
    nonce: string;
    code_verifier: string;
    return_to: string;
    expires_at: number;
  }>(
    'SELECT browser_hash, nonce, code_verifier, return_to, expires_at FROM oidc_flows WHERE state_hash = $state',
    {
      state: stateHash,
    },
  );
  if (!row) return 'unknown';
  if ((await db.run('DELETE FROM oidc_flows WHERE state_hash = $state', { state: stateHash })) === 0)
    return 'unknown';
  if (Number(row.expires_at) <= now) return 'expired';
  if (browser === undefined || hashSecret(browser) !== row.browser_hash) return 'other_browser';
  return { state, browser, nonce: row.nonce, codeVerifier: row.code_verifier, returnTo: row.return_to };
}

const keyOf = (code: string, browser: string) =>
  Buffer.from(hkdfSync('sha256', code, browser, 'skiff oidc code v1', 32));

export function sealFor(code: string, browser: string, result: LoginResult): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', keyOf(code, browser), iv);
  const body = Buffer.concat([cipher.update(JSON.stringify(result)), cipher.final()]);
  return Buffer.concat([iv, body, cipher.getAuthTag()]).toString('base64url');
}

export function openFor(code: string, browser: string, sealed: string): LoginResult | undefined {
  const raw = Buffer.from(sealed, 'base64url');
  try {
    const decipher = createDecipheriv('aes-256-gcm', keyOf(code, browser), raw.subarray(0, 12));
    decipher.setAuthTag(raw.subarray(raw.length - 16));
    const text = Buffer.concat([
      decipher.update(raw.subarray(12, raw.length - 16)),
      decipher.final(),
    ]).toString('utf8');
    const r = loginResult.safeParse(JSON.parse(text));
    return r.success ? r.data : undefined;
  } catch {
    return undefined;
  }
}

/** A new one-time code holding `result`, opened only with `browser` (the sign-in's cookie). */
export async function saveCode(
  db: StorageBackend,
  result: LoginResult,
  browser: string,
  now: number,
): Promise<string> {
  const code = CODE_PREFIX + random();
  await db.run('INSERT INTO oidc_codes (code_hash, sealed, expires_at) VALUES ($hash, $sealed, $expires)', {
    hash: hashSecret(code),
    sealed: sealFor(code, browser, result),
    expires: now + CODE_TTL_MS,
  });
  return code;
}

/**
 * The login of a one-time code, spent by this call; undefined when unknown, used, expired, or
 * presented without the cookie of the browser that signed in.
 */
export async function takeCode(
  db: StorageBackend,
  code: string,
  browser: string | undefined,
  now: number,
): Promise<LoginResult | undefined> {
  const hash = hashSecret(code);
  const row = await db.get<{ sealed: string; expires_at: number }>(
    'SELECT sealed, expires_at FROM oidc_codes WHERE code_hash = $hash',
    { hash },
  );
  if (!row) return undefined;
  if ((await db.run('DELETE FROM oidc_codes WHERE code_hash = $hash', { hash })) === 0) return undefined;
  if (Number(row.expires_at) <= now || browser === undefined) return undefined;
  return openFor(code, browser, row.sealed);
}

/** Forgets expired flows and codes. */
export async function sweepFlows(db: StorageBackend, now: number): Promise<void> {
  await db.run('DELETE FROM oidc_flows WHERE expires_at <= $now', { now });
  await db.run('DELETE FROM oidc_codes WHERE expires_at <= $now', { now });
}
