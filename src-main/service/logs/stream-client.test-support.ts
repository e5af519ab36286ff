import {
  type LogLineRecord,
  type LogMarkerRecord,
  type LogRecord,
  NDJSON,
} from '../../../src-shared/contract/log-models';
import { ContractViolation, checkRecordText } from '../test-support/contract-check.test-support';
import type { Stack } from '../test-support/harness.test-support';

/** A log request held open by a test, collecting what arrives and when. */
export interface OpenStream {
  status: number;
  contentType: string;
  /** text/plain lines, or the raw ndjson lines. */
  lines: string[];
  records: LogRecord[];
  arrivals: number[];
  ended: boolean;
  /** The first NDJSON line the contract's record schema refused (a ContractViolation). */
  violation: Error | undefined;
  /**
   * Resolves once `check` holds for what has arrived; rejects after `timeoutMs`, and as soon as a
   * line breaks the contract.
   */
  waitFor(check: (s: OpenStream) => boolean, timeoutMs?: number): Promise<void>;
  close(): void;
}

export function logPath(stack: Stack, ns: string, name: string, query = '', kind = 'pod'): string {
  return `${stack.cluster}/kubernetes-proxy/namespaces/${ns}/${kind}/${name}/logs${query ? `?${query}` : ''}`;
}

export async function openStream(stack: Stack, path: string, ndjson = true): Promise<OpenStream> {
  const abort = new AbortController();
  const res = await fetch(stack.url + path, {
    headers: { ...stack.session.headers, accept: ndjson ? 'application/x-ndjson' : 'text/plain' },
    signal: abort.signal,
  });
  const waiters = new Set<() => void>();
  const s: OpenStream = {
    status: res.status,
    contentType: res.headers.get('content-type') ?? '',
    lines: [],
    records: [],
    arrivals: [],
    ended: false,
    violation: undefined,
    waitFor(check, timeoutMs = 5_000) {
      return new Promise((resolve, reject) => {
        const test = () => {
          if (s.violation) {
            waiters.delete(test);
            clearTimeout(timer);
            reject(s.violation);
            return;
          }
          if (!check(s)) return;
          waiters.delete(test);
          clearTimeout(timer);
          resolve();
        };
        const timer = setTimeout(() => {
          waiters.delete(test);
          reject(new Error(`timed out; got ${s.lines.length} lines:\n${s.lines.slice(-20).join('\n')}`));
        }, timeoutMs);
        waiters.add(test);
        test();
      });
    },
    close: () => abort.abort(),
  };
  void (async () => {
    const decoder = new TextDecoder();
    let partial = '';
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        const text = partial + decoder.decode(chunk, { stream: true });
        const parts = text.split('\n');
        partial = parts.pop() ?? '';
        const now = Date.now();
        for (const line of parts) {
          s.lines.push(line);
          s.arrivals.push(now);
          // Every line must be a record of the contract's schema: an unknown field fails the test.
          if (ndjson && res.ok) s.records.push(checkRecordText<LogRecord>('getLogs', NDJSON, line));
        }
        for (const w of [...waiters]) w();
      }
    } catch (err) {
      // Aborted by the test, or a line the contract refuses (kept for waitFor to report).
      if (err instanceof ContractViolation) s.violation = err;
    }
    s.ended = true;
    for (const w of [...waiters]) w();
  })();
  return s;
}

export const linesOf = (s: OpenStream): LogLineRecord[] =>
  s.records.filter((r): r is LogLineRecord => r.type === 'line');
export const markersOf = (s: OpenStream): LogMarkerRecord[] =>
  s.records.filter((r): r is LogMarkerRecord => r.type === 'marker');
export const rawOf = (s: OpenStream): string[] => linesOf(s).map((l) => l.raw);

export async function readAll(stack: Stack, path: string, ndjson = true): Promise<OpenStream> {
  const s = await openStream(stack, path, ndjson);
  if (s.status === 200) await s.waitFor((x) => x.ended, 10_000);
  return s;
}
