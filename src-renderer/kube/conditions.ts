import type { KubeObject } from '../../src-shared/contract/models';
import type { Condition, Tone } from './meta';

/**
 * The one-word status of an object of any kind, from `status.conditions`: its `Ready` condition,
 * else its `Available` one (the convention cert-manager, Flux, Argo, Deployments and APIServices
 * share). Objects without either have no status here, rather than a guessed one. Conditions are
 * read defensively: the manifest is the apiserver's, so anything may be missing or of a wrong type.
 */

/** The condition types that say whether an object as a whole is fine, in the order they are looked for. */
export const SUMMARY_TYPES = ['Ready', 'Available'] as const;

export interface ConditionSummary {
  type: (typeof SUMMARY_TYPES)[number];
  status: string;
  /** "Ready", "Not ready (DoesNotExist)", "Available", "Unavailable", "Ready: Unknown". */
  text: string;
  tone: Tone;
  reason?: string;
  message?: string;
}

/** `status.conditions` as an array of well-formed conditions (type and status strings); others are skipped. */
export function conditionsOf(obj: KubeObject): Condition[] {
  const list = obj.status?.conditions;
  if (!Array.isArray(list)) return [];
  return list.filter(
    (c): c is Condition =>
      typeof (c as Condition | null)?.type === 'string' && typeof (c as Condition).status === 'string',
  );
}

const NOT: Record<ConditionSummary['type'], string> = { Ready: 'Not ready', Available: 'Unavailable' };

export function conditionSummary(obj: KubeObject): ConditionSummary | undefined {
  const conditions = conditionsOf(obj);
  for (const type of SUMMARY_TYPES) {
    const c = conditions.find((x) => x.type === type);
    if (!c) continue;
    // Only non-empty text counts: an empty reason or message says nothing.
    const reason = typeof c.reason === 'string' ? c.reason : undefined;
    const message = typeof c.message === 'string' ? c.message : undefined;
    const extra = { ...(reason ? { reason } : {}), ...(message ? { message } : {}) };
    if (c.status === 'True') return { type, status: c.status, text: type, tone: 'ok', ...extra };
    if (c.status === 'False') {
      const text = reason ? `${NOT[type]} (${reason})` : NOT[type];
      return { type, status: c.status, text, tone: 'bad', ...extra };
    }
    return { type, status: c.status, text: `${type}: ${c.status}`, tone: 'warn', ...extra };
  }
  return undefined;
}
