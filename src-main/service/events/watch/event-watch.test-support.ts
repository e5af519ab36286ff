/**
 * Test support for the event watch's integration tests: a watch read as a client reads it over
 * real HTTP (every record checked against the contract), and events added to the simulator.
 */
import type { EventInput } from '@skiff/kube-simulator';
import {
  type EventWatchRecord,
  NDJSON_WATCH,
  SSE,
} from '../../../../src-shared/contract/event-watch-operations';
import { SseParser } from '../../../../src-shared/streams/sse';
import { ContractViolation, checkRecordText } from '../../test-support/contract-check.test-support';
import type { Stack } from '../../test-support/harness.test-support';

/** One record as it arrived: the JSON, and over SSE the `event:` name and the id in force. */
export interface Received {
  record: EventWatchRecord;
  event?: string;
  lastEventId?: string;
}

/** A watch read as a client reads it, over real HTTP: the status, headers, and records as they come. */
export interface WatchClient {
  status: number;
  headers: Headers;
  /** Every record so far, in order. */
  records: Received[];
  /** SSE comments and NDJSON HEARTBEAT lines seen. */
  heartbeats: number;
  /** The first record the contract's record schema refused (a ContractViolation); reading stopped there. */
  violation: Error | undefined;
  /**
   * Resolves with the first record (from `from` on) that `match` accepts; rejects after
   * `timeoutMs`, and as soon as a record breaks the contract.
   */
  until(match: (r: EventWatchRecord) => boolean, timeoutMs?: number, from?: number): Promise<Received>;
  /** Resolves when the server ends the stream; rejects when a record broke the contract. */
  ended: Promise<void>;
  close(): void;
}

export interface WatchRequest {
  query?: string;
  headers?: Record<string, string>;
  ndjson?: boolean;
}

export async function openWatch(stack: Stack, req: WatchRequest = {}): Promise<WatchClient> {
  const abort = new AbortController();
  const url = `${stack.url}${stack.cluster}/kubernetes-events?watch=true${req.query ? `&${req.query}` : ''}`;
  const res = await fetch(url, {
    headers: {
      ...stack.session.headers,
      accept: req.ndjson ? 'application/x-ndjson' : 'text/event-stream',
      ...req.headers,
    },
    signal: abort.signal,
  });
  const records: Received[] = [];
  const waiters = new Set<() => void>();
  const client: WatchClient = {
    status: res.status,
    headers: res.headers,
    records,
    heartbeats: 0,
    violation: undefined,
    until(match, timeoutMs = 5_000, from = 0) {
      return new Promise((resolve, reject) => {
        const look = () => {
          if (client.violation) {
            waiters.delete(look);
            clearTimeout(timer);
            reject(client.violation);
            return true;
          }
          const found = records.slice(from).find((r) => match(r.record));
          if (!found) return false;
          waiters.delete(look);
          clearTimeout(timer);
          resolve(found);
          return true;
        };
        const timer = setTimeout(() => {
          waiters.delete(look);
          reject(
            new Error(
              `no matching record within ${timeoutMs} ms; got ${JSON.stringify(records.map((r) => r.record.type))}`,
            ),
          );
        }, timeoutMs);
        if (!look()) waiters.add(look);
        if (ended) void ended.then(look, look);
      });
    },
    ended: Promise.resolve(),
    close: () => abort.abort(),
  };
  let ended: Promise<void> | undefined;
  if (!res.ok || !res.body) {
    await res.text();
    return client;
  }
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  const sse = new SseParser();
  let line = '';
  const settle = () => {
    for (const w of [...waiters]) w();
  };
  ended = (async () => {
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) return;
        if (req.ndjson) {
          line += value;
          const lines = line.split('\n');
          line = lines.pop()!;
          for (const l of lines) {
            // Every record must be one of the contract's schema: an unknown field fails the test.
            const record = checkRecordText<EventWatchRecord>('watchEvents', NDJSON_WATCH, l);
            if (record.type === 'HEARTBEAT') client.heartbeats++;
            else records.push({ record });
          }
        } else {
          client.heartbeats += (value.match(/^: heartbeat$/gm) ?? []).length;
          for (const e of sse.push(value))
            records.push({
              record: checkRecordText<EventWatchRecord>('watchEvents', SSE, e.data),
              event: e.event,
              lastEventId: e.lastEventId,
            });
        }
        settle();
      }
    } catch (err) {
      // Closed by the test, or cut by the server: either is an end. A broken record is reported.
      if (!(err instanceof ContractViolation)) return;
      client.violation = err;
      void reader.cancel();
      throw err;
    } finally {
      settle();
    }
  })();
  client.ended = ended;
  return client;
}

let counter = 0;

/** Adds an event about a pod of its own in the simulator; returns its uid (the record's eventId). */
export function addEvent(
  stack: Stack,
  input: Partial<EventInput> & { reason: string },
  namespace = 'shop',
): string {
  counter++;
  const ev = stack.sim.store.addEvent({
    involvedObject: { kind: 'Pod', name: `watch-${counter}`, namespace, uid: `uid-watch-${counter}` },
    message: `watch test ${input.reason} ${counter}`,
    type: 'Warning',
    ...input,
  });
  return ev.metadata.uid!;
}

export const changeOf = (r: EventWatchRecord) =>
  r.type === 'ADDED' || r.type === 'MODIFIED' || r.type === 'DELETED' ? r : undefined;
