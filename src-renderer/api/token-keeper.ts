import type { LoginResult, TokenPair } from '../../src-shared/contract/auth-models';
import { ApiError } from './client';

/** Why a browser session stopped: the person logged out, or the service refused to refresh it. */
export type SessionEnd =
  | { reason: 'logged-out' }
  | { reason: 'refresh-failed'; detail: string }
  /** Desktop: the window's own session was ended, e.g. from another device's security panel. */
  | { reason: 'device-logged-out'; detail: string };

export interface TokenKeeperOptions {
  /**
   * Trades the session's refresh token for a new pair; must not itself go through the keeper. In a
   * browser the token is the HttpOnly cookie the service set (the page never holds it), so this
   * takes no argument and the pair answered has no refresh token.
   */
  refresh: () => Promise<TokenPair>;
  onEnded: (end: SessionEnd) => void;
  /**
   * Whether a cookie session may exist, remembered across reloads (the page cannot see an HttpOnly
   * cookie): set on a login, cleared on a logout or a refused refresh. Without one, a first visit
   * would send a refresh only to be refused. Defaults to localStorage; it holds no secret.
   */
  marker?: SessionMarker;
  now?: () => number;
}

export interface SessionMarker {
  get(): boolean;
  set(on: boolean): void;
}

const MARKER_KEY = 'skiff.cookieSession';

/** localStorage, shared by the tabs of the origin like the cookie; a browser without it resumes nothing. */
export const storageMarker: SessionMarker = {
  get: () => {
    try {
      return localStorage.getItem(MARKER_KEY) === '1';
    } catch {
      return false;
    }
  },
  set: (on) => {
    try {
      if (on) localStorage.setItem(MARKER_KEY, '1');
      else localStorage.removeItem(MARKER_KEY);
    } catch {
      // Storage refused (a private mode): a reload then asks for the password, as before.
    }
  },
};

interface Held {
  accessToken: string;
  sessionId: string;
  /** Unix seconds, from the token's own payload. */
  exp: number;
  iat: number;
}

/**
 * Holds the browser's access token in memory only (never localStorage: a script injected into the
 * page could read storage). The refresh token is the service's HttpOnly cookie, out of every
 * script's reach; a reload or a new tab trades it for a new access token (`resume`) and continues
 * the same session. Refreshes shortly before the access token expires and once on a 401;
 * refreshes are single-flight because the refresh token rotates, and sending a used one twice
 * would be read by the service as token theft and end the session (tabs refreshing at once are
 * covered by the service's overlap window).
 */
export class TokenKeeper {
  private held: Held | null = null;
  private inflight: Promise<boolean> | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly now: () => number;
  private readonly marker: SessionMarker;

  constructor(private readonly opts: TokenKeeperOptions) {
    this.now = opts.now ?? Date.now;
    this.marker = opts.marker ?? storageMarker;
  }

  get sessionId(): string | null {
    return this.held?.sessionId ?? null;
  }

  get signedIn(): boolean {
    return this.held !== null;
  }

  start(login: LoginResult): void {
    this.marker.set(true);
    this.store(login);
  }

  /**
   * After a reload or in a new tab: continues the session the cookie names, if a login left one.
   * Answers whether it did; a refused cookie is forgotten (the login page follows, no end notice),
   * an unreachable service rejects with its problem, and the marker stays for the next try.
   */
  async resume(): Promise<boolean> {
    if (this.held) return true;
    if (!this.marker.get()) return false;
    try {
      this.store(await this.opts.refresh());
      return true;
    } catch (err) {
      if (err instanceof ApiError && err.problem.status === 0) throw err;
      this.marker.set(false);
      return false;
    }
  }

  /** Forgets the tokens without telling anyone (the caller already knows why). */
  clear(): void {
    this.held = null;
    this.marker.set(false);
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
      const pair = await this.opts.refresh();
      // A logout during the refresh wins: do not resurrect the session.
      if (this.held !== held) return this.held !== null;
      this.store(pair);
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

  private store(pair: TokenPair): void {
    this.held = {
      accessToken: pair.accessToken,
      // The cookie is the origin's, shared by its tabs: another tab's login may have replaced it.
      sessionId: pair.auth.sid,
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
