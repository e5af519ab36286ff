import { createLiveMerger, type LiveMerger } from '../../../src-shared/logs/index';
import type { LogEntry } from '../../../src-shared/logs/types';
import type { LogEvent } from './events';

type Source = AsyncIterator<LogEvent[], void, undefined>;

const OUT_BATCH = 1_000;

/**
 * Merges finished logs (no follow) by time with the ordering of mergeByTime — a line without a
 * time keeps the key of its source's previous line, ties go to the earlier source — but one
 * batch at a time, so each pod is read only as fast as the merged output is consumed and memory
 * stays at one batch per pod whatever the size of the logs.
 */
export async function* mergeFinished(
  sources: readonly Source[],
): AsyncGenerator<LogEvent[], void, undefined> {
  const heads = sources.map(() => ({
    batch: [] as LogEvent[],
    pos: 0,
    key: Number.NEGATIVE_INFINITY,
    done: false,
  }));
  const fill = async (i: number) => {
    const h = heads[i]!;
    while (h.pos >= h.batch.length && !h.done) {
      const r = await sources[i]!.next();
      if (r.done) h.done = true;
      else {
        h.batch = r.value;
        h.pos = 0;
      }
    }
  };
  try {
    await Promise.all(heads.map((_, i) => fill(i)));
    let out: LogEvent[] = [];
    for (;;) {
      let best = -1;
      let bestKey = 0;
      for (let i = 0; i < heads.length; i++) {
        const h = heads[i]!;
        if (h.pos >= h.batch.length) continue;
        const key = h.batch[h.pos]!.entry.ts ?? h.key;
        if (best < 0 || key < bestKey) {
          best = i;
          bestKey = key;
        }
      }
      if (best < 0) break;
      const h = heads[best]!;
      const event = h.batch[h.pos++]!;
      if (event.entry.ts !== undefined) h.key = event.entry.ts;
      out.push(event);
      if (h.pos >= h.batch.length || out.length >= OUT_BATCH) {
        yield out;
        out = [];
        await fill(best);
      }
    }
    if (out.length > 0) yield out;
  } finally {
    closeAll(sources);
  }
}

/** Ends sources without waiting: one may be parked on a read that only the session's abort ends. */
function closeAll(sources: readonly (Source | null)[]): void {
  for (const s of sources) s?.return?.().catch(() => {});
}

type Ready = { i: number; result: IteratorResult<LogEvent[], void> } | { i: number; error: unknown };

/**
 * Merges followed logs as they arrive, with createLiveMerger's window: a line is held briefly
 * so that lines of other pods stamped earlier can overtake it. Each source has at most one read
 * outstanding and the next is started only once its result is in the merger, and this generator
 * reads nothing while its consumer is not asking, so backpressure holds per pod. Sources may be
 * added while it runs (pods that appear in a followed workload).
 */
export class LiveMerge {
  private readonly merger: LiveMerger;
  private readonly sources: (Source | null)[] = [];
  private readonly byEntry = new Map<LogEntry, LogEvent>();
  private readonly ready: Ready[] = [];
  private wake: (() => void) | null = null;
  private closed = false;

  constructor(windowMs = 250, maxBuffered = 10_000) {
    this.merger = createLiveMerger({ windowMs, maxBuffered });
  }

  add(source: Source): void {
    const i = this.sources.push(source) - 1;
    this.pull(i);
  }

  /** No more sources will be added: the merge ends when the current ones do. */
  close(): void {
    this.closed = true;
    this.notify();
  }

  async *run(signal: AbortSignal): AsyncGenerator<LogEvent[], void, undefined> {
    const onAbort = () => this.notify();
    signal.addEventListener('abort', onAbort);
    try {
      while (!signal.aborted) {
        for (let r = this.ready.shift(); r !== undefined; r = this.ready.shift()) this.take(r);
        const drained = this.merger.drain();
        if (drained.entries.length > 0) yield this.events(drained.entries);
        const live = this.sources.some((s) => s !== null);
        if (!live && this.closed) break;
        if (this.ready.length > 0) continue;
        const due = this.merger.nextDueAt();
        let timer: NodeJS.Timeout | undefined;
        await new Promise<void>((resolve) => {
          this.wake = resolve;
          if (due !== undefined) timer = setTimeout(resolve, Math.max(0, due - Date.now()));
        });
        clearTimeout(timer);
        this.wake = null;
      }
      const rest = this.merger.flush();
      if (rest.entries.length > 0 && !signal.aborted) yield this.events(rest.entries);
    } finally {
      signal.removeEventListener('abort', onAbort);
      closeAll(this.sources);
    }
  }

  private pull(i: number): void {
    this.sources[i]!.next().then(
      (result) => {
        this.ready.push({ i, result });
        this.notify();
      },
      (error: unknown) => {
        this.ready.push({ i, error });
        this.notify();
      },
    );
  }

  private take(r: Ready): void {
    if ('error' in r) throw r.error;
    if (r.result.done) {
      this.sources[r.i] = null;
      return;
    }
    for (const event of r.result.value) {
      this.byEntry.set(event.entry, event);
      this.merger.push(String(r.i), event.entry);
    }
    this.pull(r.i);
  }

  private events(entries: readonly LogEntry[]): LogEvent[] {
    return entries.map((entry) => {
      const event = this.byEntry.get(entry)!;
      this.byEntry.delete(entry);
      return event;
    });
  }

  private notify(): void {
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
