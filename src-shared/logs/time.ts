/**
 * Timestamp scanning by character checks. Date.parse is avoided on the hot path: it is slow,
 * treats zone-less strings as local time (which would differ between the service and the
 * renderer), and its acceptance of 9 fractional digits is engine-specific.
 */

export interface DateTimeScan {
  /** Epoch ms (integer) when a full, valid, zoned `YYYY-MM-DD` date-time was read; else NaN. */
  ms: number;
  /** Fraction digits beyond the millisecond, as nanoseconds 0..999999 (for exact ordering). */
  subMsNanos: number;
  hasDate: boolean;
  hasTime: boolean;
  hasZone: boolean;
}

/**
 * Result of the most recent scanDateTime call. A shared scratch record instead of a returned
 * object, so that scanning a million lines allocates nothing.
 */
export const scanned: DateTimeScan = {
  ms: Number.NaN,
  subMsNanos: 0,
  hasDate: false,
  hasTime: false,
  hasZone: false,
};

function digit(s: string, i: number): number {
  // charCodeAt past the end is NaN, and NaN fails both comparisons.
  const c = s.charCodeAt(i) - 48;
  return c >= 0 && c <= 9 ? c : -1;
}

function num2(s: string, i: number): number {
  // Inlined digit checks: this runs ~8 times per timestamp.
  const a = s.charCodeAt(i) - 48;
  const b = s.charCodeAt(i + 1) - 48;
  return a >= 0 && a <= 9 && b >= 0 && b <= 9 ? a * 10 + b : -1;
}

function isTimeAt(s: string, i: number): boolean {
  return (
    num2(s, i) >= 0 &&
    s.charCodeAt(i + 2) === 58 &&
    num2(s, i + 3) >= 0 &&
    s.charCodeAt(i + 5) === 58 &&
    num2(s, i + 6) >= 0
  );
}

function reset(): void {
  scanned.ms = Number.NaN;
  scanned.subMsNanos = 0;
  scanned.hasDate = false;
  scanned.hasTime = false;
  scanned.hasZone = false;
}

const POW10 = [1, 10, 100, 1000, 10000, 100000, 1000000];

// Consecutive lines nearly always share a date, so the Date.UTC day computation is cached.
let cacheY = -1;
let cacheMo = -1;
let cacheD = -1;
let cacheDayMs = 0;

/**
 * Reads a date and/or time starting at `start` and returns the index just past it, or `start`
 * when there is none. Accepts `YYYY-MM-DD` or `YYYY/MM/DD`, then `T`/space and `HH:MM:SS`,
 * an optional `.`/`,` fraction of any length, and an optional `Z` or `±HH:MM`/`±HHMM` zone;
 * also a bare `HH:MM:SS[.frac]`. With `allowBracket`, one surrounding `[...]` is consumed.
 * Only a complete, zoned, dash-separated date-time yields `scanned.ms`: zone-less text is
 * ambiguous (local time of which machine?), so it is recognised but never turned into a time.
 */
export function scanDateTime(s: string, start: number, allowBracket: boolean): number {
  reset();
  let j = start;
  const bracket = allowBracket && s.charCodeAt(j) === 91;
  if (bracket) j++;
  let y = -1;
  let mo = 0;
  let d = 0;
  let dashDate = false;
  const y2 = num2(s, j);
  const yLo = y2 < 0 ? -1 : num2(s, j + 2);
  if (yLo >= 0) {
    const sep = s.charCodeAt(j + 4);
    if ((sep === 45 || sep === 47) && s.charCodeAt(j + 7) === sep) {
      mo = num2(s, j + 5);
      d = num2(s, j + 8);
      if (mo >= 0 && d >= 0) {
        y = y2 * 100 + yLo;
        dashDate = sep === 45;
        j += 10;
        scanned.hasDate = true;
        const c = s.charCodeAt(j);
        if ((c === 84 || c === 116 || c === 32) && isTimeAt(s, j + 1)) j++;
      }
    }
  }
  let h = -1;
  let mi = 0;
  let sec = 0;
  let ms = 0;
  let sub = 0;
  let off = 0;
  if (isTimeAt(s, j)) {
    scanned.hasTime = true;
    h = num2(s, j);
    mi = num2(s, j + 3);
    sec = num2(s, j + 6);
    j += 8;
    const c = s.charCodeAt(j);
    if ((c === 46 || c === 44) && digit(s, j + 1) >= 0) {
      j++;
      let n = 0;
      for (let dd = digit(s, j); dd >= 0; dd = digit(s, j)) {
        if (n < 3) ms = ms * 10 + dd;
        else if (n < 9) sub = sub * 10 + dd;
        n++;
        j++;
      }
      if (n < 3) ms *= POW10[3 - n]!;
      if (n < 9) sub *= POW10[6 - Math.max(0, n - 3)]!;
    }
    const z = s.charCodeAt(j);
    if (z === 90 || z === 122) {
      scanned.hasZone = true;
      j++;
    } else if (z === 43 || z === 45) {
      const oh = num2(s, j + 1);
      let k = j + 3;
      if (s.charCodeAt(k) === 58) k++;
      const om = oh < 0 ? -1 : num2(s, k);
      if (om >= 0 && digit(s, k + 2) < 0) {
        off = (oh * 60 + om) * (z === 43 ? 1 : -1);
        scanned.hasZone = true;
        j = k + 2;
      }
    }
  } else if (!scanned.hasDate) {
    reset();
    return start;
  }
  if (bracket) {
    if (s.charCodeAt(j) !== 93) {
      reset();
      return start;
    }
    j++;
  }
  if (
    dashDate &&
    h >= 0 &&
    scanned.hasZone &&
    mo >= 1 &&
    mo <= 12 &&
    d >= 1 &&
    d <= 31 &&
    h <= 23 &&
    mi <= 59 &&
    sec <= 60
  ) {
    if (y !== cacheY || mo !== cacheMo || d !== cacheD) {
      cacheY = y;
      cacheMo = mo;
      cacheD = d;
      // Not Date.UTC: it reads years 0..99 as 1900..1999 (Go's zero time is 0001-01-01).
      cacheDayMs = new Date(0).setUTCFullYear(y, mo - 1, d);
    }
    scanned.ms = cacheDayMs + ((h * 60 + mi - off) * 60 + sec) * 1000 + ms;
    scanned.subMsNanos = sub;
  }
  return j;
}

/**
 * Epoch number of unknown unit → integer ms. The unit is guessed by magnitude, which is safe for
 * any date between 1973 and 5138: seconds (zap, logrus), ms (pino, bunyan), µs, ns.
 */
export function epochToMs(n: number): number | undefined {
  if (!(n > 0) || !Number.isFinite(n)) return undefined;
  if (n < 1e11) return Math.floor(n * 1000);
  if (n < 1e14) return Math.floor(n);
  if (n < 1e17) return Math.floor(n / 1e3);
  return Math.floor(n / 1e6);
}

/** A time value from a structured field: ISO string with zone, epoch number, or numeric string. */
export function timeValueToMs(v: unknown): number | undefined {
  if (typeof v === 'number') return epochToMs(v);
  if (typeof v !== 'string' || v.length === 0) return undefined;
  const end = scanDateTime(v, 0, false);
  if (end === v.length && !Number.isNaN(scanned.ms)) return scanned.ms;
  if (digit(v, 0) >= 0) {
    const n = Number(v);
    if (Number.isFinite(n)) return epochToMs(n);
  }
  return undefined;
}

/**
 * Orders two RFC3339(Nano) texts exactly, including the nanoseconds that `ts` (integer ms) drops
 * and regardless of how many fraction digits each has or which zone it is written in. Used to
 * skip lines already seen after reconnecting with sinceTime. Unparseable text compares as string.
 */
export function compareTsText(a: string, b: string): number {
  scanDateTime(a, 0, false);
  const ma = scanned.ms;
  const na = scanned.subMsNanos;
  scanDateTime(b, 0, false);
  const mb = scanned.ms;
  const nb = scanned.subMsNanos;
  if (Number.isNaN(ma) || Number.isNaN(mb)) return a < b ? -1 : a > b ? 1 : 0;
  if (ma !== mb) return ma < mb ? -1 : 1;
  return na === nb ? 0 : na < nb ? -1 : 1;
}
