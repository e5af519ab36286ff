import type { KindEntry } from '../../kube/kind-catalog';

/**
 * What the command palette makes of what was typed. Kinds match by any name kubectl accepts
 * (resourceType, singular, plural, short names, Kind) and by the label on screen; an exact name
 * beats a prefix, a prefix beats a part, and ties go to the shorter name, then the label. `kind/name`
 * narrows the object search to that kind; a leading `:` (k9s) is ignored. Case never matters.
 */

export interface KindMatch {
  kind: KindEntry;
  score: number;
}

export interface PaletteQuery {
  /** What kinds are matched against (all of it, or the part before `/`). */
  kindText: string;
  /** The object name prefix to search for; empty when there is none to search. */
  namePrefix: string;
  /** With `kind/…`: the kind the objects must be of (the best match of kindText), if any matched. */
  scoped: boolean;
}

export const EXACT = 100;
export const PREFIX = 60;
export const PART = 20;

export function parseQuery(raw: string): PaletteQuery {
  const text = raw.trim().replace(/^:+/, '').trim().toLowerCase();
  const slash = text.indexOf('/');
  if (slash < 0) return { kindText: text, namePrefix: text, scoped: false };
  return { kindText: text.slice(0, slash).trim(), namePrefix: text.slice(slash + 1).trim(), scoped: true };
}

/** The names one kind answers to, lower-case. */
export function namesOf(k: KindEntry): string[] {
  const singular = k.resourceType.split('.')[0] ?? k.resourceType;
  return [k.resourceType, singular, k.plural, ...k.shortNames, k.kind, k.label.plural].map((n) =>
    n.toLowerCase(),
  );
}

/** How well `text` names kind `k`: EXACT, PREFIX or PART less the unmatched length, or 0. */
export function kindScore(text: string, k: KindEntry): number {
  if (text === '') return 0;
  let best = 0;
  for (const name of namesOf(k)) {
    const rest = name.length - text.length;
    let s = 0;
    if (name === text) s = EXACT;
    else if (name.startsWith(text)) s = PREFIX - Math.min(rest, PREFIX - PART - 1);
    else if (name.includes(text)) s = PART - Math.min(rest, PART - 1);
    best = Math.max(best, s);
  }
  return best;
}

export function matchKinds(text: string, kinds: readonly KindEntry[], limit = 8): KindMatch[] {
  return kinds
    .map((kind) => ({ kind, score: kindScore(text, kind) }))
    .filter((m) => m.score > 0)
    .sort((a, b) => b.score - a.score || a.kind.label.plural.localeCompare(b.kind.label.plural))
    .slice(0, limit);
}
