/**
 * The tokens that pin a collection view for a list walk (ListPins below). Rules: one version, one
 * token; at most `max` views per collection, least recently used dropped first; a view idle past
 * `idleMs` is dropped; a token no longer kept is a 410 snapshot_expired (the published name).
 */
import { randomBytes } from 'node:crypto';
import { ProblemError } from '../errors';

export interface PinOptions {
  /** How long a pinned view is kept after its last use. */
  idleMs: number;
  /** How many views of one collection are kept at most; the least recently used goes first. */
  max: number;
  now: () => number;
}

export const DEFAULT_PIN_OPTIONS: Omit<PinOptions, 'now'> = { idleMs: 5 * 60_000, max: 8 };

interface Pin<V> {
  view: V;
  /** When this version was first handed out: `since` durations in a walk resolve against it. */
  pinnedAt: number;
  lastUsed: number;
}

/**
 * The list tokens of one collection, like the apiserver's continue tokens: the first page of a walk
 * pins the collection view it was cut from, every Link carries the token, and the later pages are
 * cut from the same view, so a walk sees no duplicates and no gaps while the cluster changes. The
 * token names the collection instance (a restarted cache has a new one) and the version, so the
 * same unchanged data always gets the same token and conditional GETs keep their ETags. The wire
 * names stay as published: the query parameter `snapshot` and the problem `snapshot_expired`.
 */
export class ListPins<V extends { version: number }> {
  private readonly epoch = randomBytes(6).toString('base64url');
  private readonly pins = new Map<number, Pin<V>>();

  constructor(private readonly opts: PinOptions) {}

  /** Pins `current` (when not pinned yet) and returns its token. */
  pin(current: V): { token: string; pinnedAt: number } {
    const now = this.opts.now();
    this.expire(now);
    let pin = this.pins.get(current.version);
    if (pin) {
      // Re-inserted so the Map's order stays least recently used first.
      this.pins.delete(current.version);
    } else {
      pin = { view: current, pinnedAt: now, lastUsed: now };
    }
    pin.lastUsed = now;
    this.pins.set(current.version, pin);
    while (this.pins.size > this.opts.max) this.pins.delete(this.pins.keys().next().value as number);
    return { token: this.tokenOf(current.version), pinnedAt: pin.pinnedAt };
  }

  /** The view a token pinned; 410 snapshot_expired when it is no longer kept. */
  resolve(token: string): { view: V; pinnedAt: number } {
    const now = this.opts.now();
    this.expire(now);
    const cut = token.lastIndexOf('.');
    const version = cut > 0 && token.slice(0, cut) === this.epoch ? parseVersion(token.slice(cut + 1)) : null;
    const pin = version === null ? undefined : this.pins.get(version);
    if (!pin) {
      throw new ProblemError(
        'snapshot_expired',
        'this list snapshot is no longer kept (it expires 5 minutes after its last use, or the service restarted); start again from the first page, without snapshot',
      );
    }
    this.pins.delete(version!);
    pin.lastUsed = now;
    this.pins.set(version!, pin);
    return { view: pin.view, pinnedAt: pin.pinnedAt };
  }

  get size(): number {
    return this.pins.size;
  }

  private tokenOf(version: number): string {
    return `${this.epoch}.${version.toString(36)}`;
  }

  private expire(now: number): void {
    for (const [version, pin] of this.pins) {
      if (now - pin.lastUsed <= this.opts.idleMs) break;
      this.pins.delete(version);
    }
  }
}

function parseVersion(text: string): number | null {
  if (!/^[0-9a-z]{1,11}$/.test(text)) return null;
  return Number.parseInt(text, 36);
}
