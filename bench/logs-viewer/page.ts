import { SearchAddon } from '@xterm/addon-search';
import { Terminal } from '@xterm/xterm';
import type { LogStream } from '../../src-renderer/api/log-stream';
import { createBufferClient } from '../../src-renderer/views/logs/buffer-client';
import type { ViewSpec, ViewStats } from '../../src-renderer/views/logs/model';
import { pump } from '../../src-renderer/views/logs/pump';
import { type ScrollState, TerminalView } from '../../src-renderer/views/logs/terminal-view';
import { BASE_TIME, type Wire } from './generate';

/**
 * Runs in Chromium, driven by bench/logs-viewer.ts. `runSkiff` feeds the real viewer (buffer
 * worker, pump with its flow control, terminal view) from a producer worker; `runPeer` writes the
 * same lines into a plain xterm with a million lines of scrollback and searches it with
 * @xterm/addon-search, the way terminal-only viewers (Headlamp) do.
 */

const CHUNK_LINES = 500;
const host = document.getElementById('host')!;

/** Producer workers; several, taking chunks in turn, so the source is never what is measured. */
const PRODUCERS = 2;

/** The producer workers as one LogStream, each with two chunks asked for ahead (a socket has data waiting too). */
async function producer(n: number, wire: Wire, prepare = false): Promise<LogStream> {
  const lanes = await Promise.all(
    Array.from({ length: PRODUCERS }, async (_, offset) => {
      const worker = new Worker(new URL('./producer.ts', import.meta.url), { type: 'module' });
      const lane = {
        worker,
        ready: [] as (string | null)[],
        waiting: null as ((v: string | null) => void) | null,
      };
      let prepared: () => void = () => {};
      const done = new Promise<void>((r) => (prepared = r));
      worker.onmessage = (e: MessageEvent<{ chunk: string | null } | { ready: true }>) => {
        if ('ready' in e.data) return prepared();
        if (lane.waiting) {
          const w = lane.waiting;
          lane.waiting = null;
          w(e.data.chunk);
        } else lane.ready.push(e.data.chunk);
      };
      worker.postMessage({ kind: 'start', n, chunk: CHUNK_LINES, wire, offset, stride: PRODUCERS, prepare });
      if (prepare) await done;
      worker.postMessage({ kind: 'pull' });
      worker.postMessage({ kind: 'pull' });
      return lane;
    }),
  );
  let turn = 0;
  return {
    next() {
      const lane = lanes[turn]!;
      turn = (turn + 1) % PRODUCERS;
      lane.worker.postMessage({ kind: 'pull' });
      const got = lane.ready.shift();
      if (got !== undefined) return Promise.resolve(got);
      return new Promise((resolve) => {
        lane.waiting = resolve;
      });
    },
    cancel: () => {
      for (const l of lanes) l.worker.terminate();
    },
  };
}

async function jsHeap(): Promise<number | null> {
  const p = performance as Performance & {
    measureUserAgentSpecificMemory?: () => Promise<{ bytes: number }>;
  };
  if (!crossOriginIsolated || !p.measureUserAgentSpecificMemory) return null;
  return (await p.measureUserAgentSpecificMemory()).bytes;
}

const nextState = (states: ScrollState[], pred: (s: ScrollState) => boolean) =>
  new Promise<void>((resolve) => {
    const check = () => (states.length > 0 && pred(states.at(-1)!) ? resolve() : setTimeout(check, 1));
    check();
  });

/** The viewer's ingest rate, from a source that has every chunk ready (made before the clock starts). */
async function runSkiffRate(n: number) {
  const buffer = createBufferClient();
  const states: ScrollState[] = [];
  const view = new TerminalView(host, buffer, (s) => states.push(s));
  let workerMs = 0;
  const counted = {
    ingest: (text: string) =>
      buffer.ingest(text).then((s) => {
        workerMs += buffer.lastMs;
        return s;
      }),
  };
  const stream = await producer(n, 'ndjson-lean', true);
  const t0 = performance.now();
  await pump(stream, counted, (s) => view.setTotal(s.rows), new AbortController().signal);
  await nextState(states, (s) => s.total === n);
  const ingestMs = performance.now() - t0;
  stream.cancel();
  view.dispose();
  buffer.dispose();
  return { ingestMs, linesPerSec: n / (ingestMs / 1000), workerMs, workerLinesPerSec: n / (workerMs / 1000) };
}

/** Memory and filter timings, with the source making chunks as they are asked for. */
async function runSkiff(n: number) {
  const buffer = createBufferClient();
  const states: ScrollState[] = [];
  const view = new TerminalView(host, buffer, (s) => states.push(s));
  let last: ViewStats | null = null;
  const stream = await producer(n, 'ndjson-lean');
  const t0 = performance.now();
  await pump(
    stream,
    buffer,
    (s) => {
      last = s;
      view.setTotal(s.rows);
    },
    new AbortController().signal,
  );
  await nextState(states, (s) => s.total === n);
  const ingestMs = performance.now() - t0;
  stream.cancel();
  const heapAfterIngest = await jsHeap();

  /** setView round trip (as the viewer sees it) and until the filtered screen is drawn. */
  const measure = async (spec: ViewSpec) => {
    const before = states.length;
    const t = performance.now();
    const s = await buffer.setView(spec);
    const roundTrip = performance.now() - t;
    const workerMs = buffer.lastMs;
    view.setTotal(s.rows);
    await nextState(states, () => states.length > before);
    return { roundTrip, toScreen: performance.now() - t, workerMs, rows: s.rows, matches: s.matches };
  };
  const all: ViewSpec = { context: 0 };
  const results = {
    levels: await measure({ context: 0, levels: { ERROR: true, WARN: true, UNKNOWN: false } }),
    time: await measure({ context: 0, from: BASE_TIME + n / 4, until: BASE_TIME + (3 * n) / 4 }),
    literal: await measure({
      context: 0,
      search: { pattern: 'timeout', regex: false, caseSensitive: false },
    }),
    regex: await measure({
      context: 0,
      search: { pattern: 'ord-\\d{4}7\\b', regex: true, caseSensitive: false },
    }),
    context: await measure({
      context: 3,
      search: { pattern: 'timeout', regex: false, caseSensitive: false },
    }),
    absent: await measure({
      context: 0,
      search: { pattern: 'no-such-text', regex: false, caseSensitive: false },
    }),
  };
  // Search, then jump to the first match and draw it: what a person waits for after Enter.
  await buffer.setView(all);
  const t = performance.now();
  const s = await buffer.setView({
    context: 0,
    search: { pattern: 'timeout', regex: false, caseSensitive: false },
  });
  view.setTotal(s.rows);
  const row = await buffer.matchRow(0);
  const before = states.length;
  view.reveal(row);
  await nextState(states, () => states.length > before);
  const firstMatchMs = performance.now() - t;
  const heapEnd = await jsHeap();
  return {
    lines: (last as ViewStats | null)?.total ?? 0,
    ingestMs,
    results,
    firstMatchMs,
    heapAfterIngest,
    heapEnd,
    cols: view.screenCols,
    rows: view.screenRows,
    offThread: buffer.offThread,
  };
}

async function runPeer(n: number, cols: number, rows: number) {
  const term = new Terminal({ scrollback: n, cols, rows, allowProposedApi: true });
  const search = new SearchAddon();
  term.loadAddon(search);
  term.open(host);
  const stream = await producer(n, 'raw');
  // xterm's flow control guide: count bytes until their write callback, pause above the mark.
  let pending = 0;
  let resume: (() => void) | null = null;
  const t0 = performance.now();
  for (let chunk = await stream.next(); chunk !== null; chunk = await stream.next()) {
    const size = chunk.length;
    pending += size;
    term.write(chunk, () => {
      pending -= size;
      if (pending < 128 * 1024 && resume) {
        const r = resume;
        resume = null;
        r();
      }
    });
    if (pending > 512 * 1024) await new Promise<void>((r) => (resume = r));
  }
  await new Promise<void>((r) => term.write('', r));
  const writeMs = performance.now() - t0;
  stream.cancel();
  const heapAfterWrite = await jsHeap();

  const find = async (text: string, decorate: boolean) => {
    let result: { resultIndex: number; resultCount: number } | null = null;
    const sub = search.onDidChangeResults((e) => (result = e));
    const t = performance.now();
    const found = search.findNext(text, {
      caseSensitive: false,
      ...(decorate
        ? {
            decorations: {
              matchBackground: '#ffd54f',
              activeMatchBackground: '#ff8f00',
              matchOverviewRuler: '#ffd54f',
              activeMatchColorOverviewRuler: '#ff8f00',
            },
          }
        : {}),
    });
    const sync = performance.now() - t;
    // Counting and highlighting may finish after findNext returns: wait for the result event.
    const deadline = performance.now() + 120_000;
    while (decorate && result === null && performance.now() < deadline)
      await new Promise((r) => setTimeout(r, 5));
    const total = performance.now() - t;
    sub.dispose();
    search.clearDecorations();
    return {
      found,
      syncMs: sync,
      totalMs: total,
      count: (result as { resultCount: number } | null)?.resultCount ?? null,
    };
  };
  const highlighted = await find('timeout', true);
  const absent = await find('no-such-text', false);
  const heapEnd = await jsHeap();
  return {
    lines: term.buffer.active.length,
    writeMs,
    linesPerSec: n / (writeMs / 1000),
    highlighted,
    absent,
    heapAfterWrite,
    heapEnd,
  };
}

declare global {
  interface Window {
    skiffBench: { runSkiffRate: typeof runSkiffRate; runSkiff: typeof runSkiff; runPeer: typeof runPeer };
  }
}
window.skiffBench = { runSkiffRate, runSkiff, runPeer };
