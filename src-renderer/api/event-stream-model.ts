import type { EventWatchRecord } from '../../src-shared/contract/event-watch-operations';
import type { EventRecord } from '../../src-shared/contract/models';

interface Row {
  readonly ms: number;
  readonly event: EventRecord;
}

/** The list's order: newest lastTimestamp first, then eventId. */
function before(a: Row, b: Row): boolean {
  return a.ms !== b.ms ? a.ms > b.ms : a.event.eventId < b.event.eventId;
}

/** A batch this large (against what is held) is cheaper to apply by one sort than by insertions. */
const RESORT_FRACTION = 1 / 32;

/**
 * The events a watch has delivered, kept in the list's order. Changes are applied in batches (the
 * view applies one per animation frame): a small batch moves each row by bisection; a large one
 * (the replay of 100,000 events, a relist) is applied to the map and sorted once.
 */
export class LiveEvents {
  private readonly byId = new Map<string, Row>();
  private rows: Row[] = [];
  /** Increases with every batch that changed something. */
  version = 0;
  /** False until the first SYNCED: until then the state is still arriving. */
  synced = false;
  /** `rows` lags the map (a replay in progress): sorted once, when first read. */
  private unsorted = false;

  get size(): number {
    return this.byId.size;
  }

  /** The first `n` events in order. */
  first(n: number): EventRecord[] {
    if (this.unsorted) {
      this.rows = [...this.byId.values()].sort((a, b) => (before(a, b) ? -1 : before(b, a) ? 1 : 0));
      this.unsorted = false;
    }
    return this.rows.slice(0, n).map((r) => r.event);
  }

  apply(records: readonly EventWatchRecord[]): void {
    let changed = false;
    // Whatever came before a RESET is void: the state that follows it replaces everything.
    const reset = records.findLastIndex((r) => r.type === 'RESET');
    if (reset >= 0) {
      this.byId.clear();
      this.rows = [];
      this.synced = false;
      changed = true;
    }
    const batch = records
      .slice(reset + 1)
      .filter((r) => r.type === 'ADDED' || r.type === 'MODIFIED' || r.type === 'DELETED');
    // While the state is still arriving nothing is shown: the map alone is kept, and sorted once.
    const bulk =
      this.unsorted || !this.synced || (batch.length > 64 && batch.length > this.byId.size * RESORT_FRACTION);
    for (const r of batch) {
      if (r.type !== 'ADDED' && r.type !== 'MODIFIED' && r.type !== 'DELETED') continue;
      const old = this.byId.get(r.event.eventId);
      if (r.type === 'DELETED') {
        if (!old) continue;
        this.byId.delete(r.event.eventId);
        if (!bulk) this.rows.splice(this.indexOf(old), 1);
      } else {
        const row: Row = { ms: Date.parse(r.event.lastTimestamp), event: r.event };
        this.byId.set(r.event.eventId, row);
        if (!bulk) {
          if (old) this.rows.splice(this.indexOf(old), 1);
          this.rows.splice(this.insertionPoint(row), 0, row);
        }
      }
      changed = true;
    }
    if (bulk && batch.length > 0) this.unsorted = true;
    if (records.some((r) => r.type === 'SYNCED')) {
      if (!this.synced) changed = true;
      this.synced = true;
    }
    if (changed) this.version++;
  }

  private insertionPoint(row: Row): number {
    let lo = 0;
    let hi = this.rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (before(this.rows[mid]!, row)) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  private indexOf(row: Row): number {
    const i = this.insertionPoint(row);
    // Rows equal in order sit together; the one object is found among them.
    for (let j = i; j < this.rows.length && !before(row, this.rows[j]!); j++)
      if (this.rows[j] === row) return j;
    return this.rows.indexOf(row);
  }
}
