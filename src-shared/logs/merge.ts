import type { LogEntry } from './types';

export interface LogSource {
  /** Tag carried into the output, typically the pod (or pod/container) name. */
  source: string;
  entries: readonly LogEntry[];
}

/**
 * Merged lines as parallel arrays rather than one `{ source, entry }` wrapper per line: a
 * million-line view then costs no extra objects, and `entries` can go straight into
 * applyLogFilter, whose indices also index `sources`.
 */
export interface MergedLog {
  entries: LogEntry[];
  sources: string[];
}

/*
 * Ordering key shared by both mergers: a line without `ts` (a continuation or stack-trace line)
 * takes the key of the previous timed line of its own source, so it stays glued to its head
 * line; before any timed line the key is -Infinity (emitted as early as possible). Ties go to
 * the earlier source in input/registration order; within one source the original order is
 * always kept, even when its timestamps go backwards (clock steps, app-supplied times), because
 * each source is consumed strictly front to back.
 */

/** k-way merge of complete logs by time. Stable; O(n log k). */
export function mergeByTime(sources: readonly LogSource[]): MergedLog {
  const out: MergedLog = { entries: [], sources: [] };
  const k = sources.length;
  const pos = new Int32Array(k);
  const key = new Float64Array(k).fill(Number.NEGATIVE_INFINITY);
  const heap: number[] = [];

  const less = (a: number, b: number): boolean => key[a]! < key[b]! || (key[a] === key[b] && a < b);
  const advanceKey = (s: number): void => {
    const ts = sources[s]!.entries[pos[s]!]!.ts;
    if (ts !== undefined) key[s] = ts;
  };
  const siftDown = (i: number): void => {
    const n = heap.length;
    for (;;) {
      const l = 2 * i + 1;
      if (l >= n) return;
      const r = l + 1;
      const c = r < n && less(heap[r]!, heap[l]!) ? r : l;
      if (!less(heap[c]!, heap[i]!)) return;
      const t = heap[c]!;
      heap[c] = heap[i]!;
      heap[i] = t;
      i = c;
    }
  };

  for (let s = 0; s < k; s++) {
    if (sources[s]!.entries.length === 0) continue;
    advanceKey(s);
    heap.push(s);
  }
  for (let i = (heap.length >> 1) - 1; i >= 0; i--) siftDown(i);
  while (heap.length > 0) {
    const s = heap[0]!;
    const src = sources[s]!;
    out.entries.push(src.entries[pos[s]!]!);
    out.sources.push(src.source);
    pos[s]!++;
    if (pos[s]! < src.entries.length) advanceKey(s);
    else {
      heap[0] = heap[heap.length - 1]!;
      heap.pop();
    }
    siftDown(0);
  }
  return out;
}

export interface LiveMergerOptions {
  /** How long a line is held for later-arriving, earlier-stamped lines of other sources. */
  windowMs?: number;
  /** Memory bound: beyond this many held lines, the earliest are released regardless of age. */
  maxBuffered?: number;
}

export interface LiveMerger {
  /** Buffers a line of `source`; `now` (epoch ms) defaults to Date.now(). */
  push(source: string, entry: LogEntry, now?: number): void;
  /** Releases, in merged order, every line that is due at `now`. */
  drain(now?: number): MergedLog;
  /** Releases everything (stream end). */
  flush(): MergedLog;
  /** When the next drain can release something (epoch ms), or undefined if nothing is held. */
  nextDueAt(): number | undefined;
  readonly buffered: number;
}

interface Lane {
  readonly name: string;
  entries: LogEntry[];
  keys: number[];
  arrivals: number[];
  head: number;
  lastKey: number;
}

/**
 * Incremental merge for live streams. Release rule: the line with the smallest key among all
 * sources' oldest held lines is released once it has been held `windowMs` (or the buffer is
 * over `maxBuffered`); anything with a larger key waits behind it. So sources whose lines arrive
 * within the window of each other are interleaved by time, and a line is delayed by at most
 * about the window plus how far its neighbours' clocks lag. Lines from a source arriving more
 * than the window late come out late rather than being dropped. For history already fetched,
 * prefer mergeByTime: an event-time watermark was deliberately not used, because during the
 * initial burst it would release one pod's backlog before the next pod's had arrived.
 */
export function createLiveMerger(opts: LiveMergerOptions = {}): LiveMerger {
  const windowMs = opts.windowMs ?? 250;
  const maxBuffered = opts.maxBuffered ?? 10_000;
  const lanes: Lane[] = [];
  const byName = new Map<string, Lane>();
  let buffered = 0;

  const minLane = (): Lane | undefined => {
    // Linear scan: live views merge tens of pods at most, where this beats a heap's upkeep.
    let best: Lane | undefined;
    let bestKey = 0;
    for (const lane of lanes) {
      if (lane.head >= lane.entries.length) continue;
      const k = lane.keys[lane.head]!;
      if (best === undefined || k < bestKey) {
        best = lane;
        bestKey = k;
      }
    }
    return best;
  };

  const take = (lane: Lane, out: MergedLog): void => {
    out.entries.push(lane.entries[lane.head]!);
    out.sources.push(lane.name);
    lane.head++;
    buffered--;
    if (lane.head === lane.entries.length) {
      lane.entries = [];
      lane.keys = [];
      lane.arrivals = [];
      lane.head = 0;
    } else if (lane.head > 1024 && lane.head * 2 > lane.entries.length) {
      // Compact occasionally instead of shift(), which is O(n) per line.
      lane.entries = lane.entries.slice(lane.head);
      lane.keys = lane.keys.slice(lane.head);
      lane.arrivals = lane.arrivals.slice(lane.head);
      lane.head = 0;
    }
  };

  const release = (now: number): MergedLog => {
    const out: MergedLog = { entries: [], sources: [] };
    for (let lane = minLane(); lane !== undefined; lane = minLane()) {
      if (lane.arrivals[lane.head]! + windowMs > now && buffered <= maxBuffered) break;
      take(lane, out);
    }
    return out;
  };

  return {
    push(source, entry, now = Date.now()) {
      let lane = byName.get(source);
      if (lane === undefined) {
        lane = {
          name: source,
          entries: [],
          keys: [],
          arrivals: [],
          head: 0,
          lastKey: Number.NEGATIVE_INFINITY,
        };
        byName.set(source, lane);
        lanes.push(lane);
      }
      if (entry.ts !== undefined) lane.lastKey = entry.ts;
      lane.entries.push(entry);
      lane.keys.push(lane.lastKey);
      lane.arrivals.push(now);
      buffered++;
    },
    drain(now = Date.now()) {
      return release(now);
    },
    flush() {
      return release(Number.POSITIVE_INFINITY);
    },
    nextDueAt() {
      const lane = minLane();
      return lane === undefined ? undefined : lane.arrivals[lane.head]! + windowMs;
    },
    get buffered() {
      return buffered;
    },
  };
}
