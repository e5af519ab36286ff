import type { ClientDescription, TokenPair } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { ActivityLog } from './activity';
import { hashSecret, newSecret, REFRESH_TOKEN_PREFIX } from './secrets';
import type { SessionStore } from './sessions';
import type { StoredSession } from './state';
import { type AccessTokens, bearerChallenge } from './tokens';

export interface LifetimeOptions {
  /** Idle limit of a session: each refresh token lives this long. */
  refreshTtlMs: number;
  /** Absolute limit of a session, however often it is refreshed. */
  sessionMaxMs: number;
  /** How long the immediately previous refresh token still answers with the same new pair. */
  overlapMs: number;
}

const refused = (code: 'invalid_grant' | 'refresh_token_reused', detail: string) =>
  new ProblemError(code, detail, {}, bearerChallenge(detail));

/**
 * Issues token pairs and rotates refresh tokens. Each session is one token family (RFC 9700
 * §4.14.2): presenting a token that was already rotated means two parties hold the family, so the
 * whole session is revoked. The single exception is the immediately previous token within the
 * overlap window, which gets the very same new pair again, for a client whose response was lost.
 */
export class TokenIssuer {
  /** Previous-token hash → the pair it was exchanged for; memory only, never written to disk. */
  private readonly grace = new Map<string, { until: number; pair: Promise<TokenPair> }>();

  constructor(
    private readonly tokens: AccessTokens,
    private readonly sessions: SessionStore,
    private readonly activity: ActivityLog,
    private readonly now: () => number,
    readonly lifetimes: LifetimeOptions,
  ) {}

  async startSession(
    accountId: string,
    client: ClientDescription,
  ): Promise<TokenPair & { session: StoredSession }> {
    const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
    const { refreshTtlMs, sessionMaxMs } = this.lifetimes;
    const session = this.sessions.create(
      accountId,
      client,
      hashSecret(refreshToken),
      refreshTtlMs,
      sessionMaxMs,
    );
    const { token, payload } = await this.tokens.sign(accountId, session.sessionId, session.expiresAt);
    return { accessToken: token, refreshToken, auth: payload, session };
  }

  /**
   * The new pair, or a 401 (unknown, ended, or reused token). `device` describes the caller for the
   * log; `admit` may refuse (a rate limit) once the token's account is known.
   */
  async refresh(
    refreshToken: string,
    device: () => Promise<ClientDescription>,
    admit: (session: StoredSession) => void = () => {},
  ): Promise<{ pair: TokenPair; session: StoredSession }> {
    this.dropStaleGrace();
    const hash = hashSecret(refreshToken);
    const match = refreshToken.startsWith(REFRESH_TOKEN_PREFIX)
      ? this.sessions.findByRefreshHash(hash)
      : undefined;
    if (!match) throw refused('invalid_grant', 'the refresh token is unknown or expired');
    const { session, kind } = match;
    if (session.status !== 'active') {
      throw refused(
        'invalid_grant',
        `the session of this refresh token has ${session.status === 'expired' ? 'expired' : 'been logged out'}`,
      );
    }
    admit(session);
    if (kind === 'current') {
      // The rotation is committed synchronously, before any await, so that a concurrent request
      // with the same token sees it as the previous one and joins the same pair.
      const next = newSecret(REFRESH_TOKEN_PREFIX);
      this.sessions.rotate(session, hashSecret(next), this.lifetimes.refreshTtlMs);
      const pair = this.tokens
        .sign(session.accountId, session.sessionId, session.expiresAt)
        .then(({ token, payload }): TokenPair => ({ accessToken: token, refreshToken: next, auth: payload }));
      this.grace.set(hash, { until: this.now() + this.lifetimes.overlapMs, pair });
      const client = await device();
      this.activity.record({
        type: 'refresh',
        accountId: session.accountId,
        sessionId: session.sessionId,
        client,
      });
      return { pair: await pair, session };
    }
    const retry = kind === 'previous' ? this.grace.get(hash) : undefined;
    if (retry && this.now() <= retry.until) return { pair: await retry.pair, session };

    this.sessions.end(session, 'refresh_token_reused');
    this.forgetSession(session);
    const client = await device();
    this.activity.record({
      type: 'refresh_token_reused',
      accountId: session.accountId,
      sessionId: session.sessionId,
      client,
      detail: 'an already used refresh token was presented; the session was ended',
    });
    throw refused(
      'refresh_token_reused',
      'this refresh token was already used; the session has been ended for safety',
    );
  }

  /** Pairs held for retries within the overlap window: memory that must not outlive its window. */
  get pendingRetries(): number {
    return this.grace.size;
  }

  /** An ended session's pending retries must not hand out tokens. */
  forgetSession(session: StoredSession): void {
    if (session.refresh.previousHash) this.grace.delete(session.refresh.previousHash);
  }

  private dropStaleGrace() {
    const now = this.now();
    for (const [hash, entry] of this.grace) if (entry.until < now) this.grace.delete(hash);
  }
}
