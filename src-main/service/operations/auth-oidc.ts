/**
 * The sign-in operations (contract: oidc-operations.ts) over auth/oidc. Rules:
 * - login and callback are browser navigations. Their refusals go to a navigation as a 302 to
 *   `/?oidc_error=CODE` (the login page puts it in words), and to anything else as the
 *   problem+json of that code: a script or test sees exactly which check refused.
 * - The flow is bound to the browser by the HttpOnly cookie skiff_oidc (SameSite=Lax, so the
 *   provider's redirect back carries it; sent only under /v1/auth/oidc; 10 minutes). A successful
 *   callback keeps it for the code's 60 s, since the exchange needs it (a code works only in the
 *   browser that signed in: no login CSRF with an attacker's code); a refusal clears it.
 * - No token is ever put in a URL: the callback's redirect carries only the one-time code.
 * - returnTo is checked as a URL parser resolves it (dot segments can make `//host` of a path),
 *   at the login and again at the redirect: the browser is never sent to another host.
 * - Starting a sign-in writes a row, so starts are rate-limited per client address (429).
 */
import { Headers, setCookie } from 'undici';
import type { Reply } from '../../../src-shared/contract/define';

/** The login, callback and exchange: the only paths the browser cookie is sent to. */
const OIDC_COOKIE_PATH = '/v1/auth/oidc';

import type { AuthService } from '../auth/index';
import { failureSource } from '../auth/login-backoff';
import { CODE_TTL_MS, FLOW_TTL_MS } from '../auth/oidc/flows';
import type { OidcService } from '../auth/oidc/index';
import { BROWSER_COOKIE } from '../auth/oidc/signin';
import { inCookie } from '../auth/refresh-cookie';
import type { ClientInfo, OperationHandlers } from '../context';
import { ProblemError } from '../errors';

type OidcHandlers = Pick<OperationHandlers, 'authMethods' | 'oidcLogin' | 'oidcCallback' | 'oidcExchange'>;

/**
 * Secure when the client used https, or when the service is published under https (--public-url):
 * behind a TLS ingress without --trust-proxy the request itself looks like http.
 */
function browserCookie(
  client: ClientInfo,
  value: string,
  maxAgeSeconds: number,
  published?: OidcService,
): string {
  const headers = new Headers();
  setCookie(headers, {
    name: BROWSER_COOKIE,
    value,
    path: OIDC_COOKIE_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    secure: client.secure === true || published?.options.redirectUri.startsWith('https:') === true,
    maxAge: maxAgeSeconds,
  });
  return headers.get('set-cookie')!;
}

function redirect(location: string, headers: Record<string, string> = {}): Reply<{ location: string }> {
  return {
    data: { location },
    status: 302,
    headers: { Location: location, 'Cache-Control': 'no-store', ...headers },
  };
}

const BASE = 'http://service.invalid';

/**
 * Whether `returnTo` stays on this service once a URL parser resolved it. The contract's pattern
 * sees the text only: dot segments (`/.//evil.example`, `/a/..//evil.example`, `/%2e//…`) resolve
 * to `//evil.example`, a host of its own.
 */
export function staysHere(returnTo: string): boolean {
  const url = new URL(returnTo, BASE);
  return url.origin === BASE && !url.pathname.startsWith('//');
}

/** `returnTo` with `name=value` added to its query, its fragment kept; `/` if it would leave. */
export function withParam(returnTo: string, name: string, value: string): string {
  const url = new URL(staysHere(returnTo) ? returnTo : '/', BASE);
  url.searchParams.set(name, value);
  return url.pathname + url.search + url.hash;
}

/** A refusal: a navigation goes back to the login page with the code; anything else gets the problem. */
function refused(err: unknown, client: ClientInfo, clearCookie: boolean): Reply<{ location: string }> {
  if (!(err instanceof ProblemError) || !err.code.startsWith('oidc_') || !client.navigation) throw err;
  return redirect(
    withParam('/', 'oidc_error', err.code),
    clearCookie ? { 'Set-Cookie': browserCookie(client, '', 0) } : {},
  );
}

export function oidcHandlers(auth: AuthService): OidcHandlers {
  const configured = async (): Promise<OidcService> => {
    const oidc = await auth.oidc();
    if (!oidc)
      throw new ProblemError('oidc_not_configured', 'no identity provider is configured (--oidc-issuer)');
    return oidc;
  };
  return {
    async authMethods() {
      return { data: await auth.methods() };
    },

    async oidcLogin({ query }, ctx) {
      const oidc = await configured();
      const core = await auth.core();
      // Each start writes a flow row: bounded per address, as refreshes are (memory, per replica).
      const key = `oidc-login:address:${failureSource(ctx.client.address)}`;
      core.limiter.enforce(key, core.rateLimits.refreshPerAddress, 'sign-ins from this address');
      core.limiter.hit(key, core.rateLimits.refreshPerAddress);
      const returnTo = query.returnTo ?? '/';
      if (!staysHere(returnTo))
        throw new ProblemError(
          'invalid_query',
          'returnTo must be a path on this service (it resolves elsewhere)',
        );
      try {
        const { location, flow } = await oidc.signIn.start(returnTo);
        return redirect(location, {
          'Set-Cookie': browserCookie(ctx.client, flow.browser, FLOW_TTL_MS / 1000, oidc),
        });
      } catch (err) {
        return refused(err, ctx.client, false);
      }
    },

    async oidcCallback({ query }, ctx) {
      const oidc = await configured();
      const core = await auth.core();
      try {
        const { returnTo, code, browser } = await oidc.signIn.finish(
          query,
          ctx.cookies?.[BROWSER_COOKIE],
          await core.describe(ctx.client),
        );
        return redirect(withParam(returnTo, 'oidc_code', code), {
          'Set-Cookie': browserCookie(ctx.client, browser, CODE_TTL_MS / 1000, oidc),
        });
      } catch (err) {
        return refused(err, ctx.client, true);
      }
    },

    async oidcExchange({ body }, ctx) {
      const oidc = await configured();
      const core = await auth.core();
      const result = await oidc.signIn.exchange(body.code, ctx.cookies?.[BROWSER_COOKIE]);
      return body.refreshTokenIn === 'cookie' ? inCookie(core, result, ctx.client) : { data: result };
    },
  };
}
