import type { LoginResult, TokenPair } from '../../src-shared/contract/auth-models';
import { ApiError } from './client';

/** Why a browser session stopped: the person logged out, or the service refused to refresh it. */
export type SessionEnd =
  | { reason: 'logged-out' }
  | { reason: 'refresh-failed'; detail: string }
  /** Desktop: the window's own session was ended, e.g. from another device's security panel. */
  | { reason: 'device-logged-out'; detail: string };

export interface TokenKeeperOptions {
  /** Trades a refresh token for a new pair; must not itself go through the keeper. */
  refresh: (refreshToken: string) => Promise<TokenPair>;
  onEnded: (end: SessionEnd) => void;
  now?: () => number;
}

interface Held {
  accessToken: string;
  refreshToken: string;
  sessionId: string;
  /** Unix seconds, from the token's own payload. */
  exp: number;
  iat: number;
}

/**
 * Holds the browser's tokens in memory only (never localStorage: a script injected into the page
 * could read storage, and a reload asking for the password again is the price of that).
 * Refreshes shortly before the access token expires and once on a 401; refreshes are
 * single-flight because the refresh token rotates, and sending a used one twice would be read
 * by the service as token theft and end the session.
 */
export class TokenKeeper {
  private held: Held | null = null;
  private inflight: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;

  constructor(private readonly opts: TokenKeeperOptions) {
    this.now = opts.now ?? Date.now;
  }

  get sessionId(): string | null {
    return this.held?.sessionId ?? null;
  }

  get signedIn(): boolean {
    return this.held !== null;
  }

  start(login: LoginResult): void {
    this.store(login, login.sessionId);
  }

  /** Forgets the tokens without telling anyone (the caller already knows why). */
  clear(): void {
    this.held = null;
    clearTimeout(this.timer);
  }

  async authorize(): Promise<Record<string, string>> {
    if (!this.held) return {};
    // A token about to lapse would fail mid-flight; refreshing first saves a 401 round trip.
    if (this.held.exp * 1000 - this.now() < 10_000) await this.refresh();
    return this.held ? { Authorization: `Bearer ${this.held.accessToken}` } : {};
  }

  /** Returns whether a fresh access token is now held. */
  refresh(): Promise<boolean> {
    if (!this.held) return Promise.resolve(false);
    this.inflight ??= this.doRefresh().finally(() => {
      this.inflight = null;
    });
    return this.inflight;
  }

  private async doRefresh(): Promise<boolean> {
    const held = this.held;
    if (!held) return false;
    try {
      const pair = await this.opts.refresh(held.refreshToken);
      // A logout during the refresh wins: do not resurrect the session.
      if (this.held !== held) return this.held !== null;
      this.store(pair, held.sessionId);
      return true;
    } catch (err) {
      if (this.held !== held) return this.held !== null;
      // A network failure is not a verdict on the session: keep the tokens and try again later.
      if (err instanceof ApiError && err.problem.status === 0) {
        this.schedule(15_000);
        return false;
      }
      this.clear();
      const detail = err instanceof ApiError ? err.problem.detail : (err as Error).message;
      this.opts.onEnded({ reason: 'refresh-failed', detail });
      return false;
    }
  }

  private store(pair: TokenPair, sessionId: string): void {
    this.held = {
      accessToken: pair.accessToken,
      refreshToken: pair.refreshToken,
      sessionId,
      exp: pair.auth.exp,
      iat: pair.auth.iat,
    };
    const lifetimeMs = (pair.auth.exp - pair.auth.iat) * 1000;
    const remainingMs = pair.auth.exp * 1000 - this.now();
    // Refresh when a fifth of the lifetime is left (at most a minute early), so a slow refresh still lands in time.
    const margin = Math.min(60_000, Math.max(5_000, lifetimeMs / 5));
    this.schedule(Math.max(1_000, remainingMs - margin));
  }

  private schedule(delayMs: number): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.refresh(), delayMs);
  }
}
