import type { ClientDescription, TokenPair } from '../../../src-shared/contract/auth-models';
import { ProblemError } from '../errors';
import type { StorageBackend } from '../storage/backend';
import type { ActivityLog } from './activity';
import { loadGrace } from './auth-tables';
import { openGrace, sealGrace } from './refresh-grace';
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

const ended = (session: StoredSession) =>
  refused(
    'invalid_grant',
    `the session of this refresh token has ${session.status === 'expired' ? 'expired' : 'been logged out'}`,
  );

/**
 * Issues token pairs and rotates refresh tokens. Each session is one token family (RFC 9700
 * §4.14.2): presenting a token that was already rotated means two parties hold the family, so the
 * whole session is revoked. The single exception is the immediately previous token within the
 * overlap window, which gets the very same new pair again, for a client whose response was lost.
 *
 * Across replicas the rotation is one conditional UPDATE (auth-tables.ts saveRotation): of two
 * replicas rotating the same token at the same moment exactly one changes the row; the other
 * re-reads it, finds its token is now the previous one, and answers by the overlap rule with the
 * pair the winner stored, sealed for the holder of that token (refresh-grace.ts). Within one
 * replica, a second request with a token whose rotation is in flight joins it.
 */
export class TokenIssuer {
  /** Previous-token hash → the pair it was (or is being) exchanged for here; memory only. */
  private readonly grace = new Map<string, { until: number; pair: Promise<TokenPair> }>();

  constructor(
    private readonly tokens: AccessTokens,
    private readonly sessions: SessionStore,
    private readonly activity: ActivityLog,
    private readonly now: () => number,
    readonly lifetimes: LifetimeOptions,
    private readonly backend: StorageBackend,
  ) {}

  async startSession(
    accountId: string,
    client: ClientDescription,
  ): Promise<TokenPair & { session: StoredSession }> {
    const refreshToken = newSecret(REFRESH_TOKEN_PREFIX);
    const { refreshTtlMs, sessionMaxMs } = this.lifetimes;
    const session = await this.sessions.create(
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
      ? await this.sessions.findByRefreshHash(hash)
      : undefined;
    if (!match) throw refused('invalid_grant', 'the refresh token is unknown or expired');
    const { session } = match;
    if (session.status !== 'active') throw ended(session);
    admit(session);
    // A rotation of this very token in flight here (kind still 'current'), or done within the window.
    const joined = this.grace.get(hash);
    if (joined && match.kind !== 'used' && this.now() <= joined.until)
      return { pair: await joined.pair, session };
    if (match.kind === 'current') {
      const pair = this.rotate(session, refreshToken, hash, device);
      this.grace.set(hash, { until: this.now() + this.lifetimes.overlapMs, pair });
      const rotated = await pair.catch((err: unknown) => {
        this.grace.delete(hash);
        throw err;
      });
      return { pair: rotated, session };
    }
    const stored =
      match.kind === 'previous' ? await this.storedGrace(session, refreshToken, hash) : undefined;
    if (stored) return { pair: stored, session };
    return this.reused(session, device);
  }

  /**
   * Rotates the session's current token. When another replica rotated it first, the answer is the
   * pair it stored for this token (the overlap rule); when that cannot be had, it is reuse.
   */
  private async rotate(
    session: StoredSession,
    refreshToken: string,
    hash: string,
    device: () => Promise<ClientDescription>,
  ): Promise<TokenPair> {
    const nextToken = newSecret(REFRESH_TOKEN_PREFIX);
    const next = this.sessions.nextRotation(session, hashSecret(nextToken), this.lifetimes.refreshTtlMs);
    const { token, payload } = await this.tokens.sign(session.accountId, session.sessionId, next.expiresAt);
    const pair: TokenPair = { accessToken: token, refreshToken: nextToken, auth: payload };
    if (await this.sessions.rotate(session, next, sealGrace(refreshToken, pair))) {
      await this.activity.record({
        type: 'refresh',
        accountId: session.accountId,
        sessionId: session.sessionId,
        client: await device(),
      });
      return pair;
    }
    // Lost to another replica: the session was re-read.
    if (session.status !== 'active') throw ended(session);
    const kind = this.sessions.kindOf(session, hash);
    const stored = kind === 'previous' ? await this.storedGrace(session, refreshToken, hash) : undefined;
    if (stored) return stored;
    return this.reused(session, device);
  }

  /** The pair another replica stored for this replaced token, while the overlap window lasts. */
  private async storedGrace(session: StoredSession, refreshToken: string, hash: string) {
    const g = await loadGrace(this.backend, session.sessionId);
    if (!g || g.previousHash !== hash || g.grace === null) return undefined;
    if (this.now() > g.rotatedAt + this.lifetimes.overlapMs) return undefined;
    return openGrace(refreshToken, g.grace);
  }

  /** Ends the session whose already-used token came back, and refuses. */
  private async reused(session: StoredSession, device: () => Promise<ClientDescription>): Promise<never> {
    const endedHere = await this.sessions.end(session, 'refresh_token_reused');
    this.forgetSession(session);
    if (endedHere) {
      await this.activity.record({
        type: 'refresh_token_reused',
        accountId: session.accountId,
        sessionId: session.sessionId,
        client: await device(),
        detail: 'an already used refresh token was presented; the session was ended',
      });
    }
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
