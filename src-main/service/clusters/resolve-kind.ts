/**
 * What a user typed as a resourceType, resolved against the kinds one cluster serves. The rules:
 * - Case does not matter.
 * - A kind's resourceType (its lower-case singular, `singular.group` where two groups share the
 *   singular; discovery/names.ts) names it; so does `singular.group` for every kind of a named
 *   group (`ingress.networking.k8s.io`, `deployment.apps`).
 * - A bare singular that several groups share, none of them owning the bare name, is refused
 *   naming each qualified form.
 * - A plural, a short name, a qualified plural (`deployments.apps`), or a near miss is refused,
 *   with the canonical name as the hint: one spelling per kind in URLs and saved views.
 * - Events (core and events.k8s.io) are refused pointing at the events endpoint, which serves them
 *   with their own filters.
 * - Under /namespaces/{namespace}, a cluster-scoped kind is refused.
 * Every refusal is a 400 invalid_resource_type whose `accepted` lists what the endpoint takes:
 * the nine tailored kinds first in the tree's order (what people look for first), then the others.
 */

import { ProblemError } from '../errors';
import { isEventKind, type KindInfo, TAILORED_KINDS } from './kind-info';

export interface ResolveScope {
  clusterId: string;
  /** Endpoints 3 and 4: only namespaced kinds. */
  namespaced?: boolean;
}

/** Only the nine, without discovery: a tailored kind's bare or qualified name. */
export function tailoredKind(raw: string): KindInfo | undefined {
  const name = raw.toLowerCase();
  return TAILORED_KINDS.find((k) => k.resourceType === name || qualifiedName(k) === name);
}

export function resolveKind(raw: string, kinds: readonly KindInfo[], scope: ResolveScope): KindInfo {
  const name = raw.toLowerCase();
  const found = kinds.find((k) => k.resourceType === name) ?? kinds.find((k) => qualifiedName(k) === name);
  if (found) return inScope(raw, found, kinds, scope);
  const sharing = kinds.filter((k) => k.singular === name);
  if (sharing.length > 1) {
    const names = sharing.map((k) => k.resourceType);
    throw refusal(
      `resourceType "${raw}" is served by several groups; name one: ${names.join(', ')}`,
      accepted(kinds, scope),
      { hint: `did you mean ${alternatives(names)}?`, candidates: names },
    );
  }
  const meant = misspelt(name, kinds);
  if (meant.length > 0 && meant.every(isEventKind)) throw eventsRefusal(raw, kinds, scope);
  const hint =
    meant.length > 0 ? `did you mean ${alternatives(meant.map((k) => k.resourceType))}?` : undefined;
  const list = accepted(kinds, scope);
  throw refusal(
    `unknown resourceType "${raw}"${hint ? ` (${hint})` : ''}; accepted values: ${list.join(', ')}`,
    list,
    hint ? { hint } : {},
  );
}

/** A found kind, checked against the endpoint: events have theirs, a namespace holds only namespaced kinds. */
function inScope(raw: string, kind: KindInfo, kinds: readonly KindInfo[], scope: ResolveScope): KindInfo {
  if (isEventKind(kind)) throw eventsRefusal(raw, kinds, scope);
  if (scope.namespaced && !kind.namespaced) {
    const list = accepted(kinds, scope);
    throw refusal(
      `resourceType "${raw}" is cluster-scoped and cannot be used under /namespaces/{namespace}; accepted values: ${list.join(', ')}`,
      list,
    );
  }
  return kind;
}

const qualifiedName = (k: KindInfo): string | undefined =>
  k.group === '' ? undefined : `${k.singular}.${k.group.toLowerCase()}`;

/**
 * The kinds a name that is not a resourceType meant: by qualified plural (`deployments.apps`);
 * else by the singular, plural or short name before its first dot (`pods`, `cm`,
 * `deployment.bogus`, `pods.v1.`; short names are lower case, the apiserver sees to it); else
 * the closest singular within two edits.
 */
function misspelt(name: string, kinds: readonly KindInfo[]): KindInfo[] {
  const byQualified = kinds.filter((k) => `${k.plural}.${k.group.toLowerCase()}` === name);
  if (byQualified.length > 0) return byQualified;
  const base = name.split('.')[0] as string;
  const byBase = kinds.filter((k) => k.singular === base || k.plural === base || k.shortNames.includes(base));
  if (byBase.length > 0) return byBase;
  let best: { kind: KindInfo; d: number } | undefined;
  for (const kind of ordered(kinds)) {
    if (Math.abs(base.length - kind.singular.length) > 2) continue;
    const d = editDistance(base, kind.singular);
    if (d <= 2 && (best === undefined || d < best.d)) best = { kind, d };
  }
  return best ? [best.kind] : [];
}

function eventsRefusal(raw: string, kinds: readonly KindInfo[], scope: ResolveScope): ProblemError {
  const path = `/v1/workspaces/{workspaceId}/observability/${scope.clusterId}/kubernetes-events`;
  return refusal(
    `resourceType "${raw}": events are not served as resources; GET ${path} lists them (filter with kind, name and namespace)`,
    accepted(kinds, scope),
    { hint: `use GET ${path}` },
  );
}

/** The nine first, in the tree's order, then the rest in the order given (the sort is stable). */
function ordered(kinds: readonly KindInfo[]): KindInfo[] {
  const rank = (k: KindInfo) => {
    const at = TAILORED_KINDS.findIndex((t) => t.group === k.group && t.plural === k.plural);
    return at < 0 ? TAILORED_KINDS.length : at;
  };
  return [...kinds].sort((a, b) => rank(a) - rank(b));
}

function accepted(kinds: readonly KindInfo[], scope: ResolveScope): string[] {
  return ordered(kinds)
    .filter((k) => !isEventKind(k) && (!scope.namespaced || k.namespaced))
    .map((k) => k.resourceType);
}

/** `a`, `a or b`, `a, b or c`. */
function alternatives(names: readonly string[]): string {
  const rest = names.slice(0, -1);
  return rest.length > 0 ? `${rest.join(', ')} or ${names.at(-1)}` : (names[0] as string);
}

function refusal(detail: string, list: readonly string[], extra: Record<string, unknown> = {}): ProblemError {
  return new ProblemError('invalid_resource_type', detail, {
    accepted: list,
    ...extra,
    errors: [{ in: 'params', field: 'resourceType', message: detail }],
  });
}

/** Levenshtein distance, small inputs only. */
function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
    }
    prev = cur;
  }
  return prev[b.length] as number;
}
