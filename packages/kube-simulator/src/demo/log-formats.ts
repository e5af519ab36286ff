/**
 * Log line renderers. Each demo app writes one of the formats real clusters are full of, so the
 * consumer's parser sees JSON (level/severity/lvl, msg/message, ts/time/timestamp), logfmt in
 * two key orders, bracketed and colon-prefixed levels, klog headers and free text.
 */

export type Level = 'debug' | 'info' | 'warn' | 'error' | 'fatal';

export interface Msg {
  level: Level;
  text: string;
  fields?: Record<string, string | number | boolean>;
  /** Written verbatim (stack traces, banners, apps with their own line format). */
  raw?: boolean;
}

export type FormatId =
  | 'json-zap'
  | 'json-severity'
  | 'json-lvl'
  | 'logfmt'
  | 'logfmt-ts-first'
  | 'bracket'
  | 'prefix'
  | 'klog'
  | 'python'
  | 'raw';

function iso(ts: number): string {
  return new Date(ts).toISOString();
}

function logfmtValue(v: string | number | boolean): string {
  const s = String(v);
  return /[\s"=]/.test(s) || s === '' ? JSON.stringify(s) : s;
}

function logfmtFields(fields: Msg['fields']): string {
  if (!fields) return '';
  return Object.entries(fields)
    .map(([k, v]) => ` ${k}=${logfmtValue(v)}`)
    .join('');
}

const SEVERITY: Record<Level, string> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
  fatal: 'CRITICAL',
};
const KLOG: Record<Level, string> = { debug: 'I', info: 'I', warn: 'W', error: 'E', fatal: 'F' };
const BRACKET: Record<Level, string> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARNING',
  error: 'ERROR',
  fatal: 'FATAL',
};
const PREFIX: Record<Level, string> = {
  debug: 'DEBUG',
  info: 'INFO',
  warn: 'WARN',
  error: 'ERROR',
  fatal: 'FATAL',
};

function pad(n: number, width = 2): string {
  return String(n).padStart(width, '0');
}

export function render(format: FormatId, ts: number, msg: Msg, caller = 'main.go:88'): string {
  if (msg.raw) return msg.text;
  switch (format) {
    case 'json-zap':
      return JSON.stringify({ level: msg.level, ts: iso(ts), caller, msg: msg.text, ...msg.fields });
    case 'json-severity':
      return JSON.stringify({
        severity: SEVERITY[msg.level],
        timestamp: iso(ts),
        message: msg.text,
        ...msg.fields,
      });
    case 'json-lvl':
      return JSON.stringify({
        lvl: msg.level === 'warn' ? 'warn' : msg.level,
        time: iso(ts),
        msg: msg.text,
        ...msg.fields,
      });
    case 'logfmt':
      return `level=${msg.level} msg=${JSON.stringify(msg.text)} ts=${iso(ts)}${logfmtFields(msg.fields)}`;
    case 'logfmt-ts-first':
      return `ts=${iso(ts)} caller=${caller} level=${msg.level} msg=${logfmtValue(msg.text)}${logfmtFields(msg.fields)}`;
    case 'bracket':
      return `[${BRACKET[msg.level]}] ${msg.text}`;
    case 'prefix':
      // Mixed on purpose: some apps bracket their errors even in colon-prefixed logs.
      return msg.level === 'error' ? `[ERROR] ${msg.text}` : `${PREFIX[msg.level]}: ${msg.text}`;
    case 'klog': {
      const d = new Date(ts);
      const micros = pad(d.getUTCMilliseconds(), 3) + pad((ts * 7) % 1000, 3);
      return `${KLOG[msg.level]}${pad(d.getUTCMonth() + 1)}${pad(d.getUTCDate())} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())}.${micros}       1 ${caller}] ${msg.text}`;
    }
    case 'python':
      return `${iso(ts).replace('T', ' ').replace('Z', '')} ${SEVERITY[msg.level]} ${caller} ${msg.text}`;
    case 'raw':
      return msg.text;
  }
}
