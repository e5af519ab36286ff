/**
 * What a capture may take under `--authorize rbac` (issue 26 §2): only what its taker may read,
 * each part asked as the API would ask it (objects: `list` of the kind; events: `list events`;
 * metrics: `list` of the metrics.k8s.io kind; logs: `get pods/log`), per namespace. Rules:
 * - A part allowed everywhere (or authorization off) is taken as before: no check narrows it.
 * - A part allowed in some namespaces is taken there only; the namespaces it is not allowed in are
 *   one gap of that part with reason `forbidden: …` naming the permission and the namespaces (the
 *   first ten, then how many more), so the file says what it lacks and why.
 * - A cluster-scoped part (nodes, node metrics, system events) needs the cluster scope.
 */
import type { SnapshotGap } from '../../../src-shared/contract/snapshot-models';
import type { ScopeAttributes } from '../auth/read-scope';

/** Where a part may be taken: every namespace (undefined), or `allowed`, the cluster's others `denied`. */
export type CaptureScope = { allowed: ReadonlySet<string>; denied: readonly string[] } | undefined;

const SHOWN = 10;

/** The permission as kubectl words it: `list` resource "pods" in API group "". */
function permissionText(attrs: ScopeAttributes): string {
  const resource = attrs.subresource ? `${attrs.resource}/${attrs.subresource}` : attrs.resource;
  return `${attrs.verb} resource "${resource}" in API group "${attrs.group}"`;
}

/** Names, the first ten, then how many more. */
function listed(names: readonly string[]): string {
  const sorted = [...names].sort();
  const shown = sorted.slice(0, SHOWN).join(', ');
  return sorted.length > SHOWN ? `${shown} and ${sorted.length - SHOWN} more` : shown;
}

/** The gap of a part the taker may not read somewhere; undefined when it may read it everywhere. */
export function forbiddenGap(
  part: string,
  attrs: ScopeAttributes,
  scope: CaptureScope,
  namespaced: boolean,
): SnapshotGap | undefined {
  if (scope === undefined) return undefined;
  const what = `forbidden: the taker cannot ${permissionText(attrs)}`;
  if (!namespaced) return { part, reason: `${what} at the cluster scope` };
  if (scope.denied.length === 0) return undefined;
  const taken = scope.allowed.size > 0 ? `; taken in ${listed([...scope.allowed])} only` : '';
  return { part, reason: `${what} in the namespaces ${listed(scope.denied)}${taken}` };
}

/** Whether something of `namespace` may be taken ('' is the cluster scope). */
export function inScope(scope: CaptureScope, namespace: string): boolean {
  return scope === undefined || scope.allowed.has(namespace);
}
