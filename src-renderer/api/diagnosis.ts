import type { Diagnosis } from '../../src-shared/contract/diagnosis-operations';
import type { ApiClient } from './client';
import { objectRead, type Scope } from './queries';

/**
 * What changed before an object started failing, as the service diagnoses it from what it recorded
 * (`GET …/diagnosis/…`): the onset, its signals, the ranked changes of related objects before it,
 * and the first failed run's kept logs.
 */
const DIAGNOSE = { namespaced: 'getNamespacedDiagnosis', clusterWide: 'getDiagnosis' } as const;

export function diagnosisOf(
  client: ApiClient,
  scope: Scope,
  ref: { kind: string; name: string; namespace?: string | undefined },
  signal?: AbortSignal,
): Promise<Diagnosis> {
  return objectRead(client, DIAGNOSE, scope, ref, signal);
}
