/** Building blocks of the demo apps' log profiles. */

import type { Rng } from '../random';
import type { FormatId, Msg } from './log-formats';

export interface RunContext {
  namespace: string;
  pod: string;
  container: string;
  restartIndex: number;
}

export interface LogProfile {
  format: FormatId;
  caller?: string;
  /** Mean gap between steady-state lines in the backlog. */
  intervalMs: number;
  /** Chance per ticker tick of a new line while running. */
  tickChance: number;
  /** Caps the backlog of long-running containers. */
  maxBacklog?: number;
  /** Steady-state lines stop after this many (crashing apps die young). */
  maxSteady?: number;
  startup(ctx: RunContext, ts: number): Msg[];
  steady(rng: Rng, ts: number, ctx: RunContext): Msg;
  exit(ctx: RunContext, exitCode: number, ts: number): Msg[];
}

export const info = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'info',
  text,
  ...(fields ? { fields } : {}),
});
export const warn = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'warn',
  text,
  ...(fields ? { fields } : {}),
});
export const error = (text: string, fields?: Msg['fields']): Msg => ({
  level: 'error',
  text,
  ...(fields ? { fields } : {}),
});
export const raw = (text: string): Msg => ({ level: 'info', text, raw: true });
export const none = (): Msg[] => [];

export const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
export const PATHS = [
  '/',
  '/api/products',
  '/api/cart',
  '/api/cart/items',
  '/static/app.js',
  '/healthz',
  '/api/recommendations',
];
export const AGENTS = [
  'Mozilla/5.0 (X11; Linux x86_64)',
  'kube-probe/1.31',
  'curl/8.5.0',
  'Go-http-client/1.1',
];

export function clf(ts: number): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${p(d.getUTCDate())}/${MONTHS[d.getUTCMonth()]}/${d.getUTCFullYear()}:${p(d.getUTCHours())}:${p(d.getUTCMinutes())}:${p(d.getUTCSeconds())} +0000`;
}

export function ip(rng: Rng): string {
  return `10.244.${rng.int(1, 3)}.${rng.int(2, 250)}`;
}
