import type { LoginResult } from '../../src-shared/contract/auth-models';
import { type ApiClient, ApiError, createClient } from './client';
import { httpTransport } from './http-transport';
import { ipcTransport } from './ipc-transport';
import { type SessionEnd, TokenKeeper } from './token-keeper';

export type Mode = 'desktop' | 'browser';

export interface Connection {
  mode: Mode;
  client: ApiClient;
  /** Browser only: the in-memory token holder; null in the desktop app, whose main process owns the session. */
  keeper: TokenKeeper | null;
  /** Browser only: logs in without going through the keeper. */
  login(username: string, password: string): Promise<LoginResult>;
  /** Browser only: trades the one-time code an OIDC sign-in came back with for the session's tokens. */
  exchangeOidcCode(code: string): Promise<LoginResult>;
}

/**
 * In Electron the preload's bridge is there and calls go over IPC; the main process created the
 * window's session, so there is nothing to log in to. In a browser, calls go over /v1 HTTP and
 * carry the access token the keeper holds; the refresh token stays in the service's cookie.
 */
export function connect(onEnded: (end: SessionEnd) => void): Connection {
  if (window.skiff) {
    const ipc = ipcTransport(window.skiff);
    // The window's session can be logged out from elsewhere (another device's security panel);
    // every later call is then refused until the person signs this device in again.
    const client = createClient({
      call: async (name, input, options) => {
        try {
          return await ipc.call(name, input, options);
        } catch (err) {
          if (err instanceof ApiError && err.problem.status === 401) {
            onEnded({ reason: 'device-logged-out', detail: err.problem.detail });
          }
          throw err;
        }
      },
    });
    return {
      mode: 'desktop',
      client,
      keeper: null,
      login: () => Promise.reject(new Error('the desktop app has no login page')),
      exchangeOidcCode: () => Promise.reject(new Error('the desktop app has no login page')),
    };
  }
  const baseUrl = window.location.origin;
  // Login and refresh go through a bare transport: a refresh that itself waited for a refresh would deadlock.
  const bare = createClient(httpTransport({ baseUrl }));
  // The refresh token is the service's HttpOnly cookie: a refresh sends no token, the browser does.
  const keeper = new TokenKeeper({
    refresh: async () => (await bare.call('refresh', { params: {} })).data,
    onEnded,
  });
  const client = createClient(
    httpTransport({ baseUrl, authorize: () => keeper.authorize(), onUnauthorized: () => keeper.refresh() }),
  );
  return {
    mode: 'browser',
    client,
    keeper,
    login: async (username, password) =>
      (await bare.call('login', { params: {}, body: { username, password, refreshTokenIn: 'cookie' } })).data,
    exchangeOidcCode: async (code) =>
      (await bare.call('oidcExchange', { params: {}, body: { code, refreshTokenIn: 'cookie' } })).data,
  };
}

/** Kept for callers that only need a client (scripts, tests); the app uses `connect`. */
export function defaultClient(): ApiClient {
  return connect(() => {}).client;
}

export { type ApiClient, ApiError, type Syncing, syncingOf } from './client';
export type { SessionEnd } from './token-keeper';
