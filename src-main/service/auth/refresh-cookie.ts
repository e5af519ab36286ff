/**
 * A browser's refresh token, kept as a cookie instead of in the page. Rules:
 * - The cookie is HttpOnly (no script of the page, injected ones included, can read it),
 *   SameSite=Strict (no other site's page makes the browser send it) and sent to one path only,
 *   the refresh operation's. Secure exactly when the client came over https: a Secure cookie set
 *   over plain http to anything but localhost is dropped by the browser, and the session with it.
 * - It lives as long as the service accepts the token in it (the session's idle limit, never past
 *   its absolute one), so a reload, a new tab or a browser restart within that time resumes the
 *   session instead of starting one, and a browser never sends a token the service would refuse.
 * - A token that came from the cookie goes back to the cookie, and the answer leaves it out; one
 *   that came in the body goes back in the body (scripts, the desktop app), whatever cookies came.
 * - A refusal that ends the token (401) clears the cookie, so the next page load asks for a login
 *   instead of sending it again. A rate limit (429) keeps it: the token is still good.
 * Cross-site requests are refused three times over: SameSite=Strict, the Origin guard (guard.ts),
 * and the JSON content type the refresh demands, which no form can send without a CORS preflight
 * the service never answers.
 */
import { Headers, setCookie } from 'undici';
import type { LoginResult, TokenPair } from '../../../src-shared/contract/auth-models';
import type { Reply } from '../../../src-shared/contract/define';
import { operations } from '../../../src-shared/contract/operations';
import type { CallContext, ClientInfo } from '../context';
import { ProblemError } from '../errors';
import type { AuthCore } from './core';
import { refresh } from './login';
import { bearerChallenge } from './tokens';

export const REFRESH_COOKIE = 'skiff_refresh';
/** The only path the browser sends the cookie to: the refresh operation's own. */
export const REFRESH_COOKIE_PATH = operations.refresh.path;

function serialise(client: ClientInfo, value: string, maxAgeSeconds: number): string {
  const headers = new Headers();
  setCookie(headers, {
    name: REFRESH_COOKIE,
    value,
    path: REFRESH_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Strict',
    secure: client.secure === true,
    maxAge: maxAgeSeconds,
  });
  return headers.get('set-cookie')!;
}

/** The Set-Cookie value that removes the cookie from the browser. */
export function clearedRefreshCookie(client: ClientInfo): string {
  return serialise(client, '', 0);
}

/** The answer of a login or refresh whose refresh token goes into the cookie, not the body. */
export async function inCookie<T extends TokenPair | LoginResult>(
  core: AuthCore,
  tokens: T,
  client: ClientInfo,
): Promise<Reply<T>> {
  const { refreshToken, ...rest } = tokens;
  const session = await core.sessions.get(tokens.auth.sid);
  // Whole seconds, rounded down, so the browser drops the cookie no later than the service the token.
  const maxAge = Math.max(0, Math.floor(((session?.expiresAt ?? 0) - core.now()) / 1000));
  return {
    data: rest as T,
    headers: { 'Set-Cookie': serialise(client, refreshToken ?? '', maxAge) },
  };
}

/** POST /v1/auth/refresh with no token in the body: the one in the cookie, answered into the cookie. */
export async function refreshFromCookie(core: AuthCore, ctx: CallContext): Promise<Reply<TokenPair>> {
  const token = ctx.cookies?.[REFRESH_COOKIE];
  if (!token) {
    const detail = `no refresh token: send {"refreshToken": "..."}, or the ${REFRESH_COOKIE} cookie a login with refreshTokenIn "cookie" sets`;
    throw new ProblemError('invalid_grant', detail, {}, bearerChallenge(detail));
  }
  try {
    return inCookie(core, await refresh(core, token, ctx.client), ctx.client);
  } catch (err) {
    if (!(err instanceof ProblemError) || err.status !== 401) throw err;
    throw new ProblemError(err.code, err.message, err.extensions, {
      ...err.headers,
      'Set-Cookie': clearedRefreshCookie(ctx.client),
    });
  }
}
