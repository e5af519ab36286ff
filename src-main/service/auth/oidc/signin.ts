/**
 * One sign-in with the identity provider, from the login redirect to the one-time code. Rules:
 * - Nothing is started until every check passed: the state (single use, this browser's, not
 *   expired), the code (PKCE, at the provider), the ID token (issuer, audience, signature, expiry,
 *   nonce), the username claim and the account (never a local one, never one linked to another
 *   issuer/subject: a claim such as email can move between provider users). A refusal is logged
 *   with the check that failed, and thrown as the ProblemError of its code.
 * - The session is Skiff's own, started as a password login starts one (same tokens, same
 *   device/browser/city entry, same rotation and reuse detection); the activity `login` entry says
 *   which provider and which groups.
 * - The provider's refresh token is kept sealed (links.ts) for the recheck; the page gets only a
 *   one-time code (flows.ts), never a token in a URL.
 */
import type { ClientDescription, LoginResult } from '../../../../src-shared/contract/auth-models';
import { ProblemError } from '../../errors';
import type { AuthCore } from '../core';
import { ClaimError, groupsOf, roleOf, usernameOf } from './claims';
import { type Flow, newFlow, saveCode, saveFlow, takeCode, takeFlow } from './flows';
import { loadLink, saveLink, type TokenSeal } from './links';
import type { OidcFailure, RelyingParty } from './relying-party';

export const BROWSER_COOKIE = 'skiff_oidc';

/** The problem a provider failure is answered with. */
export function problemOf(failure: OidcFailure, during: 'callback' | 'login' | 'recheck'): ProblemError {
  switch (failure.kind) {
    case 'unavailable':
      return new ProblemError(
        'oidc_unavailable',
        `the identity provider cannot be reached right now: ${failure.message}`,
      );
    case 'denied':
      return new ProblemError('oidc_denied', `the identity provider refused the sign-in: ${failure.message}`);
    case 'rejected':
      return during === 'recheck'
        ? new ProblemError(
            'oidc_access_removed',
            `the identity provider no longer accepts this user: ${failure.message}`,
          )
        : new ProblemError(
            'oidc_code_rejected',
            `the identity provider refused the authorization code: ${failure.message}`,
          );
    default:
      return new ProblemError('oidc_token_invalid', `the ID token was refused: ${failure.message}`);
  }
}

export interface CallbackQuery {
  code?: string | undefined;
  state?: string | undefined;
  error?: string | undefined;
  error_description?: string | undefined;
  [param: string]: unknown;
}

export class SignIn {
  constructor(
    private readonly core: AuthCore,
    private readonly rp: RelyingParty,
    private readonly seal: TokenSeal,
  ) {}

  /** A new flow and the provider URL to send the browser to. Throws oidc_unavailable. */
  async start(returnTo: string): Promise<{ location: string; flow: Flow }> {
    let url: URL;
    const flow = newFlow(returnTo);
    try {
      url = await this.rp.authorizationUrl(flow);
    } catch (err) {
      throw problemOf(err as OidcFailure, 'login');
    }
    await saveFlow(this.core.backend, flow, this.core.now());
    return { location: url.href, flow };
  }

  private refuse(problem: ProblemError, check: string, extra: Record<string, unknown> = {}): never {
    this.core.logger.warn(
      { code: problem.code, check, ...extra, reason: problem.message },
      'oidc sign-in refused',
    );
    throw problem;
  }

  private refuseOtherSubject(username: string): never {
    this.refuse(
      new ProblemError(
        'oidc_account_conflict',
        `the account "${username}" belongs to another user of the identity provider (another subject)`,
      ),
      'subject',
      { username },
    );
  }

  /**
   * Finishes a sign-in. Answers where to send the browser (the flow's returnTo) and the one-time
   * code; throws a ProblemError whose code says which check refused it.
   */
  async finish(
    query: CallbackQuery,
    browser: string | undefined,
    client: ClientDescription,
  ): Promise<{ returnTo: string; code: string; browser: string }> {
    const now = this.core.now();
    if (typeof query.state !== 'string' || query.state === '')
      this.refuse(new ProblemError('oidc_state_mismatch', 'the callback has no state'), 'state');
    const flow = await takeFlow(this.core.backend, query.state, browser, now);
    if (typeof flow === 'string') {
      const why = {
        unknown: 'the sign-in is unknown or was finished already',
        expired: 'the sign-in took longer than 10 minutes; start again',
        other_browser:
          'the sign-in was started in another browser (its skiff_oidc cookie is missing or different)',
      }[flow];
      this.refuse(new ProblemError('oidc_state_mismatch', why), `state:${flow}`);
    }
    if (typeof query.error === 'string') {
      const detail = query.error_description ? `${query.error}: ${query.error_description}` : query.error;
      this.refuse(
        new ProblemError('oidc_denied', `the identity provider refused the sign-in: ${detail}`),
        'provider_error',
      );
    }
    const url = new URL(this.rp.options.redirectUri);
    for (const [k, v] of Object.entries(query)) if (typeof v === 'string') url.searchParams.set(k, v);
    let tokens: Awaited<ReturnType<RelyingParty['codeGrant']>>;
    try {
      tokens = await this.rp.codeGrant(url, flow);
    } catch (err) {
      this.refuse(problemOf(err as OidcFailure, 'callback'), 'code_grant', {
        failure: (err as OidcFailure).kind,
      });
    }
    const o = this.rp.options;
    let username: string;
    try {
      username = usernameOf(tokens.claims, o.usernameClaim);
      // Anyone may type any address into an unchecked email: it names nobody.
      if (o.usernameClaim === 'email' && tokens.claims.email_verified === false)
        throw new ClaimError("the ID token's email is not verified (email_verified false)");
    } catch (err) {
      if (!(err instanceof ClaimError)) throw err;
      this.refuse(new ProblemError('oidc_token_invalid', err.message), 'username_claim');
    }
    const groups = groupsOf(tokens.claims, o.groupsClaim);
    const issuer = String(tokens.claims.iss ?? o.issuer.href);
    const subject = typeof tokens.claims.sub === 'string' ? tokens.claims.sub : username;
    // Checked before the account is touched: another subject must not even change its groups/role.
    const known = this.core.accounts.byUsername(username);
    const link = known?.source === 'oidc' ? await loadLink(this.core.backend, known.accountId) : undefined;
    if (link && (link.issuer !== issuer || link.subject !== subject)) this.refuseOtherSubject(username);
    const account = await this.core.accounts
      .upsertOidc(username, groups, roleOf(groups, o.adminGroups))
      .catch((err: unknown) => {
        if (err instanceof ProblemError) this.refuse(err, 'account', { username });
        throw err;
      });
    const linked = await saveLink(this.core.backend, {
      accountId: account.accountId,
      issuer,
      subject,
      refreshToken:
        tokens.refreshToken === undefined ? null : this.seal.seal(account.accountId, tokens.refreshToken),
      checkedAt: now,
      nextCheckAt: now + o.recheckMs,
    });
    // Two first sign-ins of one name by different subjects at once: the link written first wins.
    if (!linked) this.refuseOtherSubject(username);
    const result = await this.startSession(account.accountId, client, groups);
    const code = await saveCode(this.core.backend, result, flow.browser, now);
    return { returnTo: flow.returnTo, code, browser: flow.browser };
  }

  private async startSession(
    accountId: string,
    client: ClientDescription,
    groups: string[],
  ): Promise<LoginResult> {
    const { session, ...pair } = await this.core.issuer.startSession(accountId, client);
    const o = this.rp.options;
    await this.core.activity.record({
      type: 'login',
      accountId,
      sessionId: session.sessionId,
      client,
      detail: `signed in with ${o.name} (${o.issuer.href}); groups: ${groups.length ? groups.join(', ') : 'none'}`,
    });
    this.core.logger.info(
      { accountId, sessionId: session.sessionId, provider: o.issuer.href, groups },
      'oidc login',
    );
    return { ...pair, sessionId: session.sessionId };
  }

  /**
   * The login a one-time code holds, for the browser that signed in (its skiff_oidc cookie);
   * invalid_grant when it is unknown, used, expired or presented elsewhere.
   */
  async exchange(code: string, browser: string | undefined): Promise<LoginResult> {
    const result = await takeCode(this.core.backend, code, browser, this.core.now());
    if (!result)
      throw new ProblemError(
        'invalid_grant',
        'the sign-in code is unknown, used already, expired (60 s), or not from the browser that signed in',
      );
    return result;
  }
}
