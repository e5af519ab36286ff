import type { GuidanceCheck, GuidanceRef } from '../../../src-shared/guidance';
import { ApiError } from '../../api';
import { getOne, type Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';

/**
 * Steps that name objects, each object looked up so a missing one says so ("ConfigMap app-config"
 * marked missing). Only a 404 marks a ref missing; a kind the service cannot read, or any other
 * failure, leaves it unmarked, never wrongly missing. Refs already marked are kept as they are.
 */

const keyOf = (r: GuidanceRef) => `${r.resourceType}/${r.namespace ?? ''}/${r.name}`;

export async function lookUpMissing(
  scope: Scope,
  refs: readonly GuidanceRef[],
  signal?: AbortSignal,
): Promise<Set<string>> {
  const missing = new Set<string>();
  await Promise.all(
    refs.map(async (r) => {
      try {
        await getOne(api(), scope, r.resourceType, r.name, r.namespace, signal);
      } catch (err) {
        if (err instanceof ApiError && err.problem.status === 404) missing.add(keyOf(r));
      }
    }),
  );
  return missing;
}

export function useCheckedSteps(scope: Scope, steps: readonly GuidanceCheck[]): GuidanceCheck[] {
  const refs = steps.flatMap((s) => (s.ref && s.ref.missing === undefined ? [s.ref] : []));
  const key = refs.length ? `${scope.clusterId}/refs/${refs.map(keyOf).sort().join('|')}` : null;
  const missing = usePolling(key, (signal) => lookUpMissing(scope, refs, signal), { intervalMs: 15_000 });
  if (!missing.data) return [...steps];
  const found = missing.data;
  return steps.map((s) =>
    s.ref && found.has(keyOf(s.ref)) ? { ...s, ref: { ...s.ref, missing: true } } : s,
  );
}
