import type { IncomingMessage } from 'node:http';
import type { ClientDescription, LoginResult } from '../../../src-shared/contract/auth-models';
import type { AuthMethods } from '../../../src-shared/contract/oidc-operations';
import type { Principal } from '../context';
import type { Authenticator, RequestGuard } from '../http/request-handler';
import type { Logger } from '../logger';
import type { StorageBackend } from '../storage/backend';
import { type AuthCore, createCore } from './core';
import { desktopClientInfo } from './desktop-client';
import { createGeoLocator } from './geo';
import { createRequestGuard } from './guard';
import { createClientAddressResolver, createProxyTrust } from './ip';
import { startLocalSession } from './login';
import { createOidc, type OidcService } from './oidc/index';
import { OidcConfigError, resolveOidc } from './oidc/options';
import { type AuthOptions, resolveLifetimes } from './options';
import type { ClientSoftware } from './user-agent';

export { desktopClientInfo } from './desktop-client';
export { legacyAuthImport } from './legacy-import';
export { OidcConfigError } from './oidc/options';
export type { AuthOptions } from './options';

const SWEEP_MS = 60_000;

/** Authentication as the rest of the service sees it. */
export interface AuthService {
  /** Settles once the signing key is loaded and the first admin exists; rejects if that failed. */
  ready: Promise<void>;
  core(): Promise<AuthCore>;
  authenticate: Authenticator;
  guard: RequestGuard;
  /** The client address, through X-Forwarded-For only when the peer is a trusted proxy. */
  clientAddress(req: IncomingMessage): string | undefined;
  /** Whether the client used https (TLS, or a trusted proxy's X-Forwarded-Proto). */
  clientSecure(req: IncomingMessage): boolean;
  /** Makes the address the service listens on a valid Host. */
  allowListenAddress(host: string): void;
  /**
   * A session for the desktop window (or a test), without a password. Software defaults to this
   * process (Skiff desktop on this OS); the account defaults to `admin`.
   */
  createLocalSession(software?: Partial<ClientSoftware>, username?: string): Promise<LoginResult>;
  /** The principal of an access token, as the HTTP edge would compute it (for IPC callers). */
  principalForAccessToken(accessToken: string): Promise<Principal>;
  /** The database files used for locations; empty when none is installed. */
  geoipFiles: readonly string[];
  /** Sign-in with the OpenID Provider; undefined when none is configured. */
  oidc(): Promise<OidcService | undefined>;
  /** Whether password login is on (`--local-login`). */
  localLogin: boolean;
  /** The ways in a login page offers (GET /v1/auth/methods). */
  methods(): Promise<AuthMethods>;
  /** Which workspaces provider groups belong to (the workspaces' member groups); set by the service. */
  setGroupWorkspaces(fn: (groups: readonly string[]) => readonly string[]): void;
  close(): Promise<void>;
}

export function createAuth(
  options: AuthOptions & {
    /** The service's storage backend (storage/index.ts): opened and closed by its owner, not here. */
    backend: StorageBackend;
    dataDir?: string;
    now?: () => number;
    logger: Logger;
    appVersion?: string;
  },
): AuthService {
  const now = options.now ?? Date.now;
  const lifetimes = resolveLifetimes(options);
  const geo = createGeoLocator({
    ...(options.geoipDb !== undefined ? { dbPath: options.geoipDb } : {}),
    logger: options.logger,
  });
  const resolveAddress = createClientAddressResolver(options.trustProxy ?? []);
  const clientAddress = (req: IncomingMessage) =>
    resolveAddress(req.socket.remoteAddress, req.headers['x-forwarded-for']);
  const ready = createCore({
    backend: options.backend,
    clientAddress,
    options,
    lifetimes,
    geo,
    now,
    dataDir: options.dataDir,
    logger: options.logger,
  });
  // A failed start is reported through `ready`; this only keeps it from being an unhandled rejection.
  ready.catch(() => {});
  const oidcOptions = options.oidc ? resolveOidc(options.oidc, options.publicUrl) : undefined;
  if (oidcOptions && options.secretKey === undefined)
    throw new OidcConfigError(
      "--oidc-issuer needs --secret-key-file (or SKIFF_SECRET_KEY): the provider's refresh tokens are kept sealed with it",
    );
  const oidc: Promise<OidcService | undefined> = oidcOptions
    ? ready.then((core) => {
        const service = createOidc(core, oidcOptions, options.secretKey!);
        core.hooks.refreshed = (accountId) => service.recheck.onRefresh(accountId);
        return service;
      })
    : Promise.resolve(undefined);
  oidc.catch(() => {});
  const localLogin = options.localLogin ?? true;
  const { guard, allowListenAddress, secure } = createRequestGuard({
    ...(options.allowedHosts ? { allowedHosts: options.allowedHosts } : {}),
    ...(options.allowedOrigins ? { allowedOrigins: options.allowedOrigins } : {}),
    trustedProxy: createProxyTrust(options.trustProxy ?? []),
  });
  const sweeper = setInterval(
    () =>
      void ready
        .then(async (c) => {
          await c.sessions.sweep();
          c.activity.schedulePrune();
        })
        .catch(() => {}),
    SWEEP_MS,
  );
  sweeper.unref();

  return {
    ready: ready.then(() => undefined),
    core: () => ready,
    authenticate: async (req, requirement) => (await ready).authenticator.authenticate(req, requirement),
    guard,
    clientAddress,
    clientSecure: secure,
    allowListenAddress,
    async createLocalSession(software, username) {
      const core = await ready;
      const base = desktopClientInfo({ appVersion: options.appVersion ?? '0.0.0' });
      const merged: Omit<ClientDescription, 'location'> = { ...base, ...software };
      return startLocalSession(core, merged, username);
    },
    async principalForAccessToken(accessToken) {
      return (await ready).authenticator.fromAccessToken(accessToken);
    },
    geoipFiles: geo.files,
    oidc: () => oidc,
    localLogin,
    async methods() {
      const service = await oidc;
      return {
        password: localLogin && !(oidcOptions?.only ?? false),
        oidc: service ? await service.method() : null,
      };
    },
    setGroupWorkspaces(fn) {
      void ready
        .then((c) => {
          c.hooks.groupWorkspaces = fn;
        })
        .catch(() => {});
    },
    async close() {
      clearInterval(sweeper);
      (await oidc.catch(() => undefined))?.close();
      const core = await ready.catch(() => undefined);
      if (core) {
        await core.replicas.stop();
        await core.pending.drain();
        await core.sessions.flush();
        await core.apiKeys.flush();
      }
    },
  };
}
