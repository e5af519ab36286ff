/**
 * Logging in for integration tests: every /v1 endpoint but health, login and refresh needs a
 * Bearer access token. Start the service with `adminPassword: TEST_ADMIN_PASSWORD` (or run it
 * with SKIFF_ADMIN_PASSWORD) and spread `headers` into each request.
 */
import { checkedBody } from './contract-check.test-support';

export const TEST_ADMIN_PASSWORD = 'test-admin-password-0123';

export interface LoggedIn {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  /** `{ authorization: 'Bearer …' }` */
  headers: Record<string, string>;
}

export async function login(
  baseUrl: string,
  username = 'admin',
  password = TEST_ADMIN_PASSWORD,
  extraHeaders: Record<string, string> = {},
): Promise<LoggedIn> {
  const url = new URL('/v1/auth/login', baseUrl);
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...extraHeaders },
    body: JSON.stringify({ username, password }),
  });
  const body = checkedBody<{ accessToken?: string; refreshToken?: string; sessionId?: string }>(
    'POST',
    url.pathname,
    res,
    await res.text(),
  );
  if (res.status !== 200 || !body.accessToken || !body.refreshToken || !body.sessionId) {
    throw new Error(`login as ${username} answered ${res.status}: ${JSON.stringify(body)}`);
  }
  return {
    accessToken: body.accessToken,
    refreshToken: body.refreshToken,
    sessionId: body.sessionId,
    headers: { authorization: `Bearer ${body.accessToken}` },
  };
}
