import { create } from 'zustand';
import type { FirstLogin } from '../../src-shared/contract/auth-models';
import type { AuthMethods } from '../../src-shared/contract/oidc-operations';
import { ApiError } from '../api';
import { api, getConnection, onSessionEnded } from './connection';
import { readOidcReturn, takeReturnHash } from './oidc-return';
import { parseHash, useRoute } from './route';

/**
 * - checking: finding out whether this service wants a login at all.
 * - signed-out: the browser shows the login page.
 * - signed-in: the browser holds an access token (in memory only; the refresh token is a cookie).
 * - desktop: Electron; the main process owns the session.
 * - device-logged-out: Electron, after this device's session was ended; one click signs it in again.
 */
export type AuthPhase = 'checking' | 'signed-out' | 'signed-in' | 'desktop' | 'device-logged-out';

interface AuthState {
  phase: AuthPhase;
  username: string | null;
  sessionId: string | null;
  /** Signed out: where the generated first password is, while it is the only way in. */
  firstLogin: FirstLogin | null;
  /** Why the person is looking at the login page (session ended elsewhere, logged out…). */
  notice: string | null;
  busy: boolean;
  loginError: string | null;
  /**
   * The ways in the login page offers (password form, identity provider); null until the service
   * answered, or when it does not know the question (an older service): then the password form.
   */
  methods: AuthMethods | null;
  /** The `?oidc_error=` code the page came back with; the page words it (oidc-return.ts). */
  oidcError: string | null;
  init(): Promise<void>;
  login(username: string, password: string): Promise<void>;
  logout(): Promise<void>;
  /** Desktop: start a new session for this device through the main process. */
  renewDevice(): Promise<void>;
}

function message(err: unknown): string {
  return err instanceof ApiError ? err.problem.detail : (err as Error).message;
}

export const useAuth = create<AuthState>()((set, get) => ({
  phase: 'checking',
  username: null,
  sessionId: null,
  firstLogin: null,
  notice: null,
  busy: false,
  loginError: null,
  methods: null,
  oidcError: null,

  async init() {
    const conn = getConnection();
    onSessionEnded((end) => {
      if (end.reason === 'device-logged-out') {
        set({ phase: 'device-logged-out', notice: end.detail });
        return;
      }
      set({
        phase: 'signed-out',
        sessionId: null,
        notice:
          end.reason === 'logged-out'
            ? 'You logged out.'
            : `Your session has ended (${end.detail}). Log in again to continue.`,
      });
      void loadFirstLogin(set);
    });
    if (conn.mode === 'desktop') {
      set({ phase: 'desktop' });
      void loadWhoAmI(set);
      return;
    }
    // Before anything else (the route reads the address as the app starts): an OIDC sign-in came
    // back with a one-time code or an error, which leave the address bar at once.
    const back = readOidcReturn(window.location, takeReturnHash());
    if (back) {
      const before = window.location.hash;
      window.history.replaceState(window.history.state, '', back.cleanUrl);
      // The route remembered when the sign-in left: the store read the bare address at start.
      if (window.location.hash !== before) useRoute.setState(parseHash(window.location.hash));
    }
    void loadMethods(set);
    if (back?.code) {
      await finishOidcSignIn(back.code, set, get);
      return;
    }
    if (back?.error) set({ oidcError: back.error });
    try {
      // A login left the refresh token in the service's cookie: a reload or a new tab continues
      // that session. Only when one may exist, so a first visit sends nothing that is refused.
      await conn.keeper?.resume();
      // The probe answers 200 with or without a session, so a first visit logs no error.
      const probe = (await api().call('currentSession', { params: {} })).data;
      if (probe.authenticated) {
        set({ phase: 'signed-in', username: probe.account.username, sessionId: probe.sessionId });
      } else {
        set({ phase: 'signed-out', notice: null, firstLogin: probe.firstLogin ?? null });
      }
    } catch (err) {
      set({ phase: 'signed-out', notice: `The service did not answer: ${message(err)}` });
    }
  },

  async login(username, password) {
    set({ busy: true, loginError: null, oidcError: null });
    try {
      const result = await getConnection().login(username, password);
      getConnection().keeper?.start(result);
      set({ phase: 'signed-in', username, sessionId: result.sessionId, notice: null, busy: false });
    } catch (err) {
      set({ busy: false, loginError: message(err) });
    }
  },

  async renewDevice() {
    set({ busy: true });
    const outcome = await window.skiffDesktop?.renewSession();
    if (outcome?.ok) {
      set({ phase: 'desktop', busy: false, notice: null });
      void loadWhoAmI(set);
    } else {
      set({ busy: false, notice: outcome ? outcome.problem.detail : 'this window has no desktop bridge' });
    }
  },

  async logout() {
    const conn = getConnection();
    const sessionId = get().sessionId ?? conn.keeper?.sessionId;
    try {
      if (sessionId) await api().call('logoutSession', { params: { sessionId } });
    } catch {
      // The tokens are dropped either way; a session the service already ended needs no logout.
    }
    conn.keeper?.clear();
    set({ phase: 'signed-out', sessionId: null, notice: 'You logged out.' });
    void loadFirstLogin(set);
  },
}));

type Set = (s: Partial<AuthState>) => void;

/** What the page calls the identity provider before the service named it. */
function providerName(state: AuthState): string {
  return state.methods?.oidc?.name ?? 'the identity provider';
}

/**
 * The login page's ways in. An older service answers 404 (route_not_found) and an unreachable one
 * nothing: the page then offers the password form, as before.
 */
async function loadMethods(set: Set): Promise<void> {
  try {
    set({ methods: (await api().call('authMethods', { params: {} })).data });
  } catch {
    // The password form stays; a login then reports an unreachable service in its own words.
  }
}

/** The callback's one-time code, traded by POST for the session, exactly as after a password login. */
async function finishOidcSignIn(code: string, set: Set, get: () => AuthState): Promise<void> {
  set({ busy: true });
  try {
    const conn = getConnection();
    const result = await conn.exchangeOidcCode(code);
    conn.keeper?.start(result);
    set({
      phase: 'signed-in',
      sessionId: result.sessionId,
      notice: null,
      busy: false,
      loginError: null,
      oidcError: null,
    });
    void loadWhoAmI(set);
  } catch (err) {
    set({
      phase: 'signed-out',
      busy: false,
      loginError:
        err instanceof ApiError && err.problem.status === 0
          ? message(err)
          : `The sign-in with ${providerName(get())} could not be finished (${message(err)}). Sign in again.`,
    });
    void loadFirstLogin(set);
  }
}

/** Signed out: asks the probe again where the first password is (it may have been changed since). */
async function loadFirstLogin(set: Set): Promise<void> {
  try {
    const probe = (await api().call('currentSession', { params: {} })).data;
    set({ firstLogin: probe.authenticated ? null : (probe.firstLogin ?? null) });
  } catch {
    // The login page then says nothing about it; the login itself reports an unreachable service.
  }
}

async function loadWhoAmI(set: Set): Promise<void> {
  try {
    const me = await api().call('whoAmI', { params: {} });
    set({ username: me.data.account.username, sessionId: me.data.sessionId });
  } catch {
    // Older services have no whoAmI; the header then shows no name, nothing else depends on it.
  }
}

/** The current session's id, for marking "this device" when the service does not. */
export function currentSessionId(): string | null {
  return useAuth.getState().sessionId;
}

export { loadWhoAmI };
