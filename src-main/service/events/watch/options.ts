/**
 * The event watch's bounds and timings, with the defaults production runs with.
 *
 * Rules: every bound has a default; tests shorten them, nothing else changes them at run time.
 */
/** Bounds and timings of the event watch; the defaults suit production, tests shorten them. */
export interface EventWatchOptions {
  /** A heartbeat (SSE comment, NDJSON HEARTBEAT line) after this long without output. Default 15 s. */
  heartbeatMs?: number;
  /** How often a stream checks its credential again (logout, expiry, revocation). Default 500 ms. */
  credentialCheckMs?: number;
  /** Concurrent watches per session or API key; one more gets 429. Default 8. */
  maxPerCredential?: number;
  /** Changes a client may fall behind by before it is ended with an error. Default 10,000. */
  maxBacklog?: number;
  /** The SSE `retry:` the stream advises EventSource to wait before reconnecting. Default 3 s. */
  retryMs?: number;
}

export type ResolvedWatchOptions = Required<EventWatchOptions>;

export function resolveWatchOptions(o: EventWatchOptions = {}): ResolvedWatchOptions {
  return {
    heartbeatMs: o.heartbeatMs ?? 15_000,
    credentialCheckMs: o.credentialCheckMs ?? 500,
    maxPerCredential: o.maxPerCredential ?? 8,
    maxBacklog: o.maxBacklog ?? 10_000,
    retryMs: o.retryMs ?? 3_000,
  };
}
