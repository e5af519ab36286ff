import { createGenerator, type Wire } from './generate';

/**
 * The stand-in for the network: a worker that hands out the next chunk when asked, as a response
 * body or the IPC channel would. Several run side by side, each making every stride-th chunk.
 * With `prepare`, all of a worker's chunks are made before the first is asked for, so a rate
 * measurement times the viewer and not the generator (at the cost of holding them in memory).
 */
type Command =
  | { kind: 'start'; n: number; chunk: number; wire: Wire; offset: number; stride: number; prepare: boolean }
  | { kind: 'pull' };

const scope = self as unknown as {
  onmessage: ((e: MessageEvent<Command>) => void) | null;
  postMessage(m: { chunk: string | null } | { ready: true }): void;
};

let next = 0;
let total = 0;
let size = 1000;
let wire: Wire = 'ndjson-lean';
let stride = 1;
let made: string[] = [];
const gen = createGenerator();

function make(): string | null {
  if (next >= total) return null;
  const end = Math.min(total, next + size);
  let out = '';
  for (let i = next; i < end; i++) out += gen(i, wire);
  next += size * stride;
  return out;
}

scope.onmessage = (e) => {
  const m = e.data;
  if (m.kind === 'start') {
    total = m.n;
    size = m.chunk;
    wire = m.wire;
    stride = m.stride;
    next = m.offset * size;
    made = [];
    if (m.prepare) {
      for (let c = make(); c !== null; c = make()) made.push(c);
      made.reverse();
      scope.postMessage({ ready: true });
    }
    return;
  }
  scope.postMessage({ chunk: made.length > 0 ? made.pop()! : make() });
};
