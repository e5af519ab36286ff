import type { ActivityEntry } from './auth-models';

/**
 * The activity log's CSV export, one format for the service (`GET /v1/auth/activity/export`) and
 * the Security view's "Export CSV" (built from the JSON pages, so it works over IPC too).
 *
 * RFC 4180: a header row, CRLF line ends, fields quoted when they hold a comma, quote or line
 * break. A text field starting with `=`, `+`, `-`, `@`, tab or CR is prefixed with `'` so that a
 * spreadsheet shows it instead of running it as a formula (API key names are chosen by users).
 */

export const ACTIVITY_CSV_COLUMNS = [
  'at',
  'type',
  'accountId',
  'username',
  'sessionId',
  'apiKeyId',
  'byAccountId',
  'byUsername',
  'bySessionId',
  'clientType',
  'device',
  'browser',
  'os',
  'location',
  'detail',
  'activityId',
] as const;

const FORMULA_START = /^[=+\-@\t\r]/;
const NEEDS_QUOTES = /[",\r\n]/;

export function csvCell(value: string | null | undefined): string {
  if (value === null || value === undefined || value === '') return '';
  const safe = FORMULA_START.test(value) ? `'${value}` : value;
  return NEEDS_QUOTES.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
}

const joined = (...parts: Array<string | null | undefined>) =>
  parts.filter((p): p is string => typeof p === 'string' && p !== '').join(' ');

function cells(e: ActivityEntry): Array<string | null> {
  const c = e.client;
  const device = c ? joined(c.device.vendor, c.device.model) || c.device.type : null;
  return [
    e.at,
    e.type,
    e.accountId,
    e.username,
    e.sessionId,
    e.apiKeyId,
    e.by?.accountId ?? null,
    e.by?.username ?? null,
    e.by?.sessionId ?? null,
    c?.clientType ?? null,
    device,
    c ? joined(c.browser.name, c.browser.version) : null,
    c ? joined(c.os.name, c.os.version) : null,
    c?.location.label ?? null,
    e.detail,
    e.activityId,
  ];
}

export const ACTIVITY_CSV_HEADER = `${ACTIVITY_CSV_COLUMNS.join(',')}\r\n`;

/** CSV lines (each ending in CRLF) for `entries`, without the header. */
export function activityCsvLines(entries: readonly ActivityEntry[]): string {
  let out = '';
  for (const e of entries) out += `${cells(e).map(csvCell).join(',')}\r\n`;
  return out;
}
