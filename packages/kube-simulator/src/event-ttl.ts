/**
 * The apiserver's `--event-ttl`: an event is deleted once its last occurrence is older than the
 * TTL (one hour by default on a real cluster; seconds here, so tests and demos need not wait).
 * Watches see DELETED, as they do when etcd's lease on the event runs out.
 */

import { lastSeen } from './events';
import type { SimStore } from './store';
import type { CoreEvent } from './types';

/** Deletes every event last seen `ttlMs` or longer ago; returns how many went. */
export function expireEvents(store: SimStore, ttlMs: number): number {
  const cutoff = store.now() - ttlMs;
  const doomed: Array<[string, string]> = [];
  for (const ev of store.list('events') as CoreEvent[]) {
    if (lastSeen(ev) <= cutoff) doomed.push([ev.metadata.namespace ?? '', ev.metadata.name]);
  }
  for (const [namespace, name] of doomed) store.remove('events', namespace, name);
  return doomed.length;
}

/** Runs expireEvents every second (or twice per TTL when shorter); returns the stop function. */
export function startEventTtl(store: SimStore, ttlMs: number): () => void {
  const timer = setInterval(() => expireEvents(store, ttlMs), Math.max(50, Math.min(1_000, ttlMs / 2)));
  timer.unref();
  return () => clearInterval(timer);
}
