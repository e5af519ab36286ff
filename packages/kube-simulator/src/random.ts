/**
 * Deterministic randomness. Everything the demo cluster generates derives from a seed or from
 * a hash of a stable string, so names, uids and container ids do not change between runs.
 */

/** mulberry32: tiny, fast and good enough for demo data (not for anything secret). */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(minInclusive: number, maxInclusive: number): number {
    return minInclusive + Math.floor(this.next() * (maxInclusive - minInclusive + 1));
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from empty list');
    return item;
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}

/** FNV-1a 32-bit; used to derive stable values from names. */
export function hash32(text: string, seed = 0x811c9dc5): number {
  let h = seed >>> 0;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

const HEX = Array.from({ length: 256 }, (_, i) => i.toString(16).padStart(2, '0'));

function hexFrom(text: string, length: number): string {
  // One hash of the text seeds a fast generator for the remaining bytes.
  const rng = new Rng(hash32(text));
  let out = '';
  while (out.length < length) {
    const w = Math.floor(rng.next() * 4294967296);
    out += (HEX[w >>> 24] as string) + HEX[(w >>> 16) & 255] + HEX[(w >>> 8) & 255] + HEX[w & 255];
  }
  return out.length === length ? out : out.slice(0, length);
}

/** A v4-shaped UUID derived from a stable string. */
export function uidFor(text: string): string {
  const h = hexFrom(text, 32);
  const variant = ((Number.parseInt(h[16] ?? '0', 16) & 0x3) | 0x8).toString(16);
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-${variant}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

export function containerIdFor(text: string): string {
  return `containerd://${hexFrom(text, 64)}`;
}

export function imageDigestFor(text: string): string {
  return `sha256:${hexFrom(text, 64)}`;
}

export function hexId(text: string, length: number): string {
  return hexFrom(text, length);
}

// The alphabet Kubernetes uses for generated name suffixes and pod-template-hash (no vowels,
// so generated names never spell words).
const SAFE = 'bcdfghjklmnpqrstvwxz2456789';

export function safeSuffix(text: string, length: number): string {
  let out = '';
  let h = hash32(text);
  for (let i = 0; i < length; i++) {
    if (i % 5 === 0 && i > 0) h = hash32(`${i}:${text}`);
    out += SAFE[h % SAFE.length];
    h = Math.floor(h / SAFE.length);
  }
  return out;
}
