/** Display helpers shared by tables and detail panes. */

import { parseQuantity } from '../../src-shared/kube/quantity';

/** kubectl-style age: 45s, 12m, 3h, 5d, 2y; the most significant unit, plus a second one while it matters. */
export function age(iso: string | undefined, now: number = Date.now()): string {
  if (!iso) return '—';
  const t = Date.parse(iso);
  if (Number.isNaN(t)) return '—';
  const s = Math.max(0, Math.floor((now - t) / 1000));
  if (s < 120) return `${s}s`;
  const m = Math.floor(s / 60);
  if (m < 10) return `${m}m${s % 60 ? `${s % 60}s` : ''}`;
  if (m < 180) return `${m}m`;
  const h = Math.floor(m / 60);
  if (h < 8) return `${h}h${m % 60 ? `${m % 60}m` : ''}`;
  if (h < 48) return `${h}h`;
  const d = Math.floor(h / 24);
  if (d < 8) return `${d}d${h % 24 ? `${h % 24}h` : ''}`;
  if (d < 365 * 2) return `${d}d`;
  return `${Math.floor(d / 365)}y`;
}

export function timestamp(iso: string | null | undefined): string {
  if (!iso) return '—';
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  return t.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
}

const two = (n: number) => String(n).padStart(2, '0');

/**
 * A wall-clock moment as a person checks it against their own clock: local HH:MM (24-hour, the
 * same in every locale), with the local date as YYYY-MM-DD in front when it is not today. Answers
 * null for a value that is not a time, so callers can leave it out rather than print nonsense.
 */
export function clockTime(iso: string, now: Date = new Date()): string | null {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return null;
  const hm = `${two(t.getHours())}:${two(t.getMinutes())}`;
  const sameDay =
    t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  return sameDay ? hm : `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${hm}`;
}

/** Milliseconds since the epoch, or 0 for missing values so they sort first. */
export function time(iso: string | undefined): number {
  if (!iso) return 0;
  const t = Date.parse(iso);
  return Number.isNaN(t) ? 0 : t;
}

// One quantity parser for the renderer and the guidance (src-shared/kube/quantity.ts).
export { parseQuantity };

export function formatCpu(cores: number): string {
  if (!Number.isFinite(cores)) return '—';
  if (cores < 1) return `${Math.round(cores * 1000)}m`;
  return `${Number(cores.toFixed(2))}`;
}

export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes)) return '—';
  const units = ['B', 'Ki', 'Mi', 'Gi', 'Ti', 'Pi'];
  let v = bytes;
  let i = 0;
  while (v >= 1024 && i < units.length - 1) {
    v /= 1024;
    i++;
  }
  return `${Number(v.toFixed(v < 10 && i > 0 ? 1 : 0))}${units[i]}`;
}

/** Shows a quantity the way a person reads it: CPU in cores or millicores, memory in binary units. */
export function formatQuantity(resource: string, q: string | undefined): string {
  if (q === undefined) return '—';
  const n = parseQuantity(q);
  if (Number.isNaN(n)) return q;
  if (resource === 'cpu') return formatCpu(n);
  if (resource === 'memory' || resource.includes('storage')) return formatBytes(n);
  return q;
}

export function percent(part: number, whole: number): string {
  if (!Number.isFinite(part) || !Number.isFinite(whole) || whole <= 0) return '—';
  return `${Math.round((part / whole) * 100)}%`;
}

export function plural(n: number, word: string, many = `${word}s`): string {
  return `${n} ${n === 1 ? word : many}`;
}
