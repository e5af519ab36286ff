/**
 * Synthetic container logs for the viewer benchmark: the service's ndjson records (the wire
 * format the viewer ingests) or the raw lines (what a terminal-only viewer is written). A mix of
 * JSON, logfmt, bracketed-level and access-log lines; about 1 line in 100 says "timeout".
 * Written for speed (no regex, no JSON.stringify): the source must not be what is measured.
 */

export const BASE_TIME = Date.UTC(2026, 10, 22, 9, 0, 0);
export const POD = 'checkout-7d9f8b6c5-x2k4z';

const PATHS = ['/api/cart', '/api/products', '/healthz', '/api/orders', '/static/app.js'];

/** ISO time of `ms`, with the date-time part cached per second (lines are a millisecond apart). */
function isoCache() {
  let second = -1;
  let prefix = '';
  return (ms: number): string => {
    const s = Math.floor(ms / 1000);
    if (s !== second) {
      second = s;
      prefix = new Date(s * 1000).toISOString().slice(0, 20);
    }
    const frac = ms - s * 1000;
    return `${prefix}${frac < 10 ? '00' : frac < 100 ? '0' : ''}${frac}`;
  };
}

/** xorshift32 seeded by the line number alone, so any worker can make any chunk identically. */
function random(i: number, seed: number) {
  let x = Math.imul(i + 1, 2654435761) ^ seed || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 4294967296;
  };
}

export type Wire = 'raw' | 'ndjson' | 'ndjson-lean';

/**
 * Line `i` as raw text, or as the ndjson record the service sends: with its parsed fields, or
 * without them as the viewer asks (`fields=false`).
 */
export function createGenerator(seed = 7) {
  const isoOf = isoCache();
  return (i: number, wire: Wire): string => {
    const r = random(i, seed);
    r();
    const time = BASE_TIME + i;
    const iso = isoOf(time);
    const p = r();
    const level = p < 0.05 ? 'error' : p < 0.15 ? 'warn' : p < 0.3 ? 'debug' : 'info';
    const LEVEL = p < 0.05 ? 'ERROR' : p < 0.15 ? 'WARN' : p < 0.3 ? 'DEBUG' : 'INFO';
    const timeout = r() < 0.01;
    const order = `ord-${10000 + Math.floor(r() * 90000)}`;
    const msg = timeout
      ? `upstream timeout after ${Math.floor(r() * 900)}ms`
      : level === 'error'
        ? 'payment declined'
        : 'order placed';
    let text: string;
    let escaped: string;
    let level2 = LEVEL;
    let format: string;
    let message = msg;
    let fields = '';
    switch (i % 4) {
      case 0:
        text = `{"level":"${level}","ts":"${iso}Z","caller":"checkout/handler.go:142","msg":"${msg}","orderId":"${order}","items":${i % 7}}`;
        escaped = `{\\"level\\":\\"${level}\\",\\"ts\\":\\"${iso}Z\\",\\"caller\\":\\"checkout/handler.go:142\\",\\"msg\\":\\"${msg}\\",\\"orderId\\":\\"${order}\\",\\"items\\":${i % 7}}`;
        fields = `,"fields":{"level":"${level}","ts":"${iso}Z","caller":"checkout/handler.go:142","msg":"${msg}","orderId":"${order}","items":"${i % 7}"}`;
        format = 'json';
        break;
      case 1:
        text = `ts=${iso}Z level=${level} msg="${msg}" order=${order} took=${i % 97}ms`;
        escaped = `ts=${iso}Z level=${level} msg=\\"${msg}\\" order=${order} took=${i % 97}ms`;
        fields = `,"fields":{"ts":"${iso}Z","level":"${level}","msg":"${msg}","order":"${order}","took":"${i % 97}ms"}`;
        format = 'logfmt';
        break;
      case 2:
        text = `[${LEVEL}] ${msg} (order ${order}, worker ${i % 16})`;
        escaped = text;
        message = `${msg} (order ${order}, worker ${i % 16})`;
        format = 'prefix';
        break;
      default: {
        const status = timeout ? 504 : level === 'error' ? 500 : 200;
        const tail = `${PATHS[i % PATHS.length]}?o=${order} HTTP/1.1" ${status} ${i % 5000}${timeout ? ' timeout' : ''}`;
        text = `10.244.1.${i % 250} - - [22/Nov/2026:09:00:00 +0000] "GET ${tail}`;
        escaped = `10.244.1.${i % 250} - - [22/Nov/2026:09:00:00 +0000] \\"GET ${tail.replace('"', '\\"')}`;
        message = escaped;
        level2 = 'UNKNOWN';
        format = 'plain';
      }
    }
    if (wire === 'raw') return `${text}\r\n`;
    if (wire === 'ndjson-lean') fields = '';
    return `{"type":"line","pod":"${POD}","container":"checkout","ts":"${iso}${String((i * 7919) % 1000000).padStart(6, '0')}Z","time":${time},"level":"${level2}","format":"${format}","message":"${message}","raw":"${escaped}"${fields}}\n`;
  };
}
