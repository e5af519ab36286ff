import type { LoginResult } from '../../src-shared/contract/auth-models';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Service } from '../service/index';
import type { DesktopStore } from './desktop-store';
import type { TokenVault } from './token-vault';

/** Refresh this long before the access token expires, so an IPC call never meets an expired one. */
const REFRESH_MARGIN_S = 60;

/**
 * The desktop window's own login session. The main process creates it (the user owns the data dir,
 * so no password is asked) and it shows in the session list as this device. Its refresh token is
 * kept in the OS keychain when one backs safeStorage, so a restart continues the same session;
 * otherwise only in memory, and each start is a new session.
 */
export class DesktopSession {
  private tokens: LoginResult | null = null;
  private pending: Promise<LoginResult> | null = null;

  constructor(
    private readonly service: Pick<Service, 'auth' | 'invoke'>,
    private readonly vault: TokenVault,
    private readonly store: DesktopStore,
    private readonly now: () => number = Date.now,
  ) {}

  /** The principal for an IPC call; a logged-out session gets 401 until the user signs in again. */
  async principal(): Promise<Principal> {
    const tokens = await this.current();
    return this.service.auth.principalForAccessToken(tokens.accessToken);
  }

  get sessionId(): string | undefined {
    return this.tokens?.sessionId;
  }

  /** Starts a fresh session after the user chose "sign in again" (e.g. after logging this device out). */
  async renew(): Promise<void> {
    this.tokens = await this.service.auth.createLocalSession();
    this.persist();
  }

  private async current(): Promise<LoginResult> {
    const tokens = this.tokens;
    if (tokens && tokens.auth.exp - REFRESH_MARGIN_S > this.now() / 1000) return tokens;
    this.pending ??= this.obtain().finally(() => {
      this.pending = null;
    });
    return this.pending;
  }

  private async obtain(): Promise<LoginResult> {
    const refreshToken = this.tokens?.refreshToken ?? this.unsealed();
    if (refreshToken) {
      try {
        const reply = await this.service.invoke(
          'refresh',
          { params: {}, query: {}, body: { refreshToken } },
          {
            principal: { accountId: '', workspaces: [] },
            client: { via: 'ipc' },
            signal: new AbortController().signal,
          },
        );
        const data = reply.data as Omit<LoginResult, 'sessionId'>;
        this.tokens = { ...data, sessionId: this.tokens?.sessionId ?? this.store.read().lastSessionId ?? '' };
        this.persist();
        return this.tokens;
      } catch (err) {
        // A refresh refused because the session was logged out must not quietly start a new one.
        if (this.tokens) throw new ProblemError('unauthorized', 'this device was logged out; sign in again');
        if (!(err instanceof ProblemError)) throw err;
      }
    }
    this.tokens = await this.service.auth.createLocalSession();
    this.persist();
    return this.tokens;
  }

  private unsealed(): string | null {
    const sealed = this.store.read().sealedRefreshToken;
    return sealed ? this.vault.open(sealed) : null;
  }

  private persist() {
    const tokens = this.tokens;
    // Asked for in the body (the default), so always there; the cookie is for browsers only.
    const sealed = tokens?.refreshToken ? this.vault.seal(tokens.refreshToken) : null;
    this.store.update((s) => {
      const { sealedRefreshToken: _old, ...rest } = s;
      return {
        ...rest,
        ...(sealed ? { sealedRefreshToken: sealed } : {}),
        ...(tokens ? { lastSessionId: tokens.sessionId } : {}),
      };
    });
  }
}
