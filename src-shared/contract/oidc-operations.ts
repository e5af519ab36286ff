/**
 * Sign-in with the team's OpenID Provider (issue 26): which ways in a login page offers, and the
 * authorization-code flow's three steps. All public: they are how a caller gets credentials.
 *
 * Rules:
 * - Tokens never travel in a URL. The callback hands the page a one-time code (60 s, single use),
 *   which the page trades by POST for the same LoginResult a password login answers.
 * - login and callback are browser navigations: they answer 302. A refusal of a navigation is a
 *   302 to `/?oidc_error=CODE` (the login page says it in words); any other caller gets the
 *   problem+json of that code.
 */
import { z } from 'zod';
import { loginResult } from './auth-models';
import { defineOperation } from './define';

const none = z.strictObject({});
const noBody = z.undefined();

export const OIDC_LOGIN_PATH = '/v1/auth/oidc/login';
export const OIDC_CALLBACK_PATH = '/v1/auth/oidc/callback';

/** The codes a refused sign-in sends the login page as `?oidc_error=`. */
export const OIDC_ERROR_CODES = [
  'oidc_state_mismatch',
  'oidc_code_rejected',
  'oidc_token_invalid',
  'oidc_unavailable',
  'oidc_access_removed',
  'oidc_denied',
  'oidc_account_conflict',
] as const;
export type OidcErrorCode = (typeof OIDC_ERROR_CODES)[number];

export const authMethods = z
  .strictObject({
    password: z.boolean().meta({
      description: 'Whether the page offers the password form (false with --oidc-only or --local-login off).',
    }),
    oidc: z
      .strictObject({
        name: z.string().meta({ description: 'What the button says: "Sign in with {name}".' }),
        loginPath: z.literal(OIDC_LOGIN_PATH),
        available: z.boolean().meta({
          description:
            "Whether the provider's discovery document answered lately (probed with a short timeout).",
        }),
        detail: z.string().optional().meta({ description: 'Why it is unavailable, when it is.' }),
      })
      .nullable()
      .meta({ description: 'null: no identity provider is configured.' }),
  })
  .meta({ id: 'AuthMethods' });
export type AuthMethods = z.infer<typeof authMethods>;

/** A path on this service to go back to: relative, one leading slash (no `//host`, no scheme). */
const returnTo = z
  .string()
  .max(2000)
  .regex(/^\/(?![/\\])[^\s]*$/, 'returnTo must be a path on this service, starting with a single "/"')
  .optional();

const redirect = z
  .strictObject({
    location: z.string().meta({ description: 'Where the browser is sent (also the Location header).' }),
  })
  .meta({ id: 'Redirect' });

export const oidcOperations = {
  authMethods: defineOperation({
    method: 'GET',
    path: '/v1/auth/methods',
    summary:
      'The ways in a login page offers: the password form, and the identity provider (its name, and whether it can be reached now).',
    auth: 'public',
    params: none,
    query: none,
    body: noBody,
    result: authMethods,
    paginated: false,
  }),

  oidcLogin: defineOperation({
    method: 'GET',
    path: OIDC_LOGIN_PATH,
    summary:
      'Start a sign-in with the identity provider: 302 to its authorization endpoint (code flow with PKCE S256, state and nonce), binding the flow to this browser with the HttpOnly cookie skiff_oidc. returnTo: where to land afterwards (a path on this service).',
    auth: 'public',
    params: none,
    query: z.strictObject({ returnTo }),
    body: noBody,
    result: redirect,
    paginated: false,
    successStatus: 302,
  }),

  oidcCallback: defineOperation({
    method: 'GET',
    path: OIDC_CALLBACK_PATH,
    summary:
      "Where the provider sends the browser back. Checks the state (single use, this browser's), trades the code (PKCE), verifies the ID token (issuer, audience, signature from the provider's JWKS, expiry, nonce), then starts a session and answers 302 to returnTo with ?oidc_code=, a one-time code for POST /v1/auth/oidc/exchange.",
    auth: 'public',
    params: none,
    // Providers add parameters of their own (iss, session_state, scope...): all are passed on to the checks.
    query: z.looseObject({
      code: z.string().max(4096).optional(),
      state: z.string().max(1024).optional(),
      error: z.string().max(200).optional(),
      error_description: z.string().max(2000).optional(),
    }),
    body: noBody,
    result: redirect,
    paginated: false,
    successStatus: 302,
  }),

  oidcExchange: defineOperation({
    method: 'POST',
    path: '/v1/auth/oidc/exchange',
    summary:
      'Trade the callback\'s one-time code (single use, 60 s) for the session\'s tokens, exactly as a password login answers them (refreshTokenIn "cookie" too).',
    auth: 'public',
    requiresJson: true,
    params: none,
    query: none,
    body: z.strictObject({
      code: z.string().min(1).max(200),
      refreshTokenIn: z.enum(['body', 'cookie']).optional(),
    }),
    result: loginResult,
    paginated: false,
  }),
} as const;
