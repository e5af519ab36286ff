/**
 * The changes watch read as a client reads it, over real HTTP (every record checked against the
 * contract's ChangeWatchRecord), and the edits the tests make to a Deployment in the simulator.
 */
import type { KubeObject } from '@skiff/kube-simulator';
import type { ChangeWatchRecord } from '../../../../src-shared/contract/change-operations';
import { NDJSON_WATCH, SSE } from '../../../../src-shared/contract/event-watch-operations';
import { SseParser } from '../../../../src-shared/streams/sse';
import { ContractViolation, checkRecordText } from '../../test-support/contract-check.test-support';
import type { Stack } from '../../test-support/harness.test-support';

export interface Received {
  record: ChangeWatchRecord;
  event?: string;
  lastEventId?: string;
}

export interface ChangeWatchClient {
  status: number;
  headers: Headers;
  body: string;
  records: Received[];
  heartbeats: number;
  until(match: (r: ChangeWatchRecord) => boolean, timeoutMs?: number, from?: number): Promise<Received>;
  ended: Promise<void>;
  close(): void;
}

export async function openChangeWatch(
  stack: Stack,
  req: { query?: string; headers?: Record<string, string>; ndjson?: boolean } = {},
): Promise<ChangeWatchClient> {
  const abort = new AbortController();
  const url = `${stack.url}${stack.cluster}/changes?watch=true${req.query ? `&${req.query}` : ''}`;
  const res = await fetch(url, {
    headers: {
      ...stack.session.headers,
      accept: req.ndjson ? NDJSON_WATCH : SSE,
      ...req.headers,
    },
    signal: abort.signal,
  });
  const records: Received[] = [];
  const waiters = new Set<() => void>();
  let violation: Error | undefined;
  let ended: Promise<void> = Promise.resolve();
  const client: ChangeWatchClient = {
    status: res.status,
    headers: res.headers,
    body: '',
    records,
    heartbeats: 0,
    until(match, timeoutMs = 15_000, from = 0) {
      return new Promise((resolve, reject) => {
        const look = () => {
          if (violation) {
            waiters.delete(look);
            clearTimeout(timer);
            reject(violation);
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
              `no matching record within ${timeoutMs} ms; got ${JSON.stringify(records.map((r) => r.record))}`,
            ),
          );
        }, timeoutMs);
        if (!look()) waiters.add(look);
        void ended.then(look, look);
      });
    },
    ended,
    close: () => abort.abort(),
  };
  if (!res.ok || !res.body) {
    client.body = await res.text();
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
            const record = checkRecordText<ChangeWatchRecord>('watchChanges', NDJSON_WATCH, l);
            if (record.type === 'HEARTBEAT') client.heartbeats++;
            else records.push({ record });
          }
        } else {
          client.heartbeats += (value.match(/^: heartbeat$/gm) ?? []).length;
          for (const e of sse.push(value))
            records.push({
              record: checkRecordText<ChangeWatchRecord>('watchChanges', SSE, e.data),
              ...(e.event !== undefined ? { event: e.event } : {}),
              ...(e.lastEventId !== undefined ? { lastEventId: e.lastEventId } : {}),
            });
        }
        settle();
      }
    } catch (err) {
      if (!(err instanceof ContractViolation)) return;
      violation = err;
      void reader.cancel();
      throw err;
    } finally {
      settle();
    }
  })();
  client.ended = ended;
  return client;
}

type DeploymentObject = KubeObject & {
  spec: { replicas: number; template: { spec: { containers: { image: string }[] } } };
};

/** Edits the simulator's Deployment; answers its new resourceVersion. */
export function editDeployment(
  stack: Stack,
  ns: string,
  name: string,
  edit: (d: DeploymentObject) => void,
): string {
  const stored = stack.sim.store.peek('deployments', ns, name);
  if (!stored) throw new Error(`no deployment ${ns}/${name} in the simulator`);
  const d = structuredClone(stored) as DeploymentObject;
  edit(d);
  return stack.sim.store.upsert(d).metadata.resourceVersion as string;
}

export const setImage = (image: string) => (d: DeploymentObject) => {
  d.spec.template.spec.containers[0]!.image = image;
};
