import type { Reply, ResultOf, ValidInput } from '../../src-shared/contract/define';
import type { OperationName, Operations } from '../../src-shared/contract/operations';

/** Who is calling: an account, through one login session or one API key (or neither, for public operations). */
export interface Principal {
  accountId: string;
  sessionId?: string;
  apiKeyId?: string;
  /** Administrators manage accounts. */
  admin?: boolean;
  /** Workspaces the caller is a member of; 'all' for administrators. */
  workspaces: 'all' | readonly string[];
  /**
   * Who the account is outside Skiff, for `--authorize rbac` (auth/rbac): its username, where the
   * account comes from, and the groups its identity provider last gave (none for local accounts).
   * An API key's principal carries its owner's. Absent only for anonymous callers.
   */
  identity?: PrincipalIdentity;
}

export interface PrincipalIdentity {
  username: string;
  source: 'local' | 'oidc';
  groups: readonly string[];
}

export interface ClientInfo {
  via: 'http' | 'ipc';
  /** Client address as the socket (or a trusted proxy) reported it. */
  address?: string;
  userAgent?: string;
  /** HTTP: the client reached the service over https (TLS, or a trusted proxy's X-Forwarded-Proto). */
  secure?: boolean;
  /**
   * HTTP: a browser's top-level navigation (Sec-Fetch-Mode: navigate, or an Accept that asks for
   * text/html): the OIDC sign-in answers its refusals with a redirect to the login page.
   */
  navigation?: boolean;
}

export interface CallContext {
  principal: Principal;
  client: ClientInfo;
  /** Aborted when the caller goes away, so cluster requests stop too. */
  signal: AbortSignal;
  /** Streaming operations: the media type negotiated from the spec's `produces` (default: the first). */
  mediaType?: string;
  /**
   * Streaming operations: checks the call's credential again (HTTP: the same request headers;
   * IPC: the desktop session); rejects with a 401 problem once it no longer holds (logged out,
   * expired, revoked), so a long stream ends with its credential.
   */
  recheck?: () => Promise<unknown>;
  /** Operations whose body is a file (`consumes`): HTTP hands it over here; IPC never does. */
  upload?: Upload;
  /** HTTP: the request's cookies by name (a browser's refresh token); IPC has none. */
  cookies?: Readonly<Record<string, string>>;
}

/** A request body that is a file, streamed to disk only when the operation asks for it. */
export interface Upload {
  /** Streams the body to a temporary file: 415 for a media type not consumed, 413 past the bound. */
  receive(): Promise<{ path: string; bytes: number }>;
  /** The operation keeps the received file; otherwise it is removed once the answer is sent. */
  keep(): void;
}

export type OperationHandler<K extends OperationName> = (
  input: ValidInput<Operations[K]>,
  ctx: CallContext,
) => Promise<Reply<ResultOf<Operations[K]>>>;

export type OperationHandlers = { [K in OperationName]: OperationHandler<K> };
