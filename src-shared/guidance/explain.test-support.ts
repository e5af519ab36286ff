import type { EventLike, ExplainContext, ListedObject, ObjectLike } from './findings';
import { refKey } from './refs';
import type { GuidanceRef } from './types';

/**
 * An ExplainContext backed by a table, for the explainers' tests: objects by resourceType, the
 * kinds that cannot be read (their look-ups answer undefined), and the object's events. Counts
 * each look-up so a test can tell that a ref was looked up once.
 */
export function tableContext(
  objects: Record<string, ObjectLike[]>,
  events: EventLike[] = [],
  unreadable: string[] = [],
): ExplainContext & { lookups: string[] } {
  const lookups: string[] = [];
  return {
    events,
    lookups,
    async find(ref: GuidanceRef) {
      lookups.push(refKey(ref));
      if (unreadable.includes(ref.resourceType)) return undefined;
      const found = (objects[ref.resourceType] ?? []).find(
        (o) => o.metadata?.name === ref.name && (o.metadata?.namespace ?? undefined) === ref.namespace,
      );
      return found ?? null;
    },
    async list(resourceType: string, namespace: string) {
      if (unreadable.includes(resourceType)) return undefined;
      return (objects[resourceType] ?? []).filter(
        (o): o is ListedObject => o.metadata?.namespace === namespace && typeof o.metadata?.name === 'string',
      );
    },
  };
}

export const warning = (reason: string, message: string): EventLike => ({ type: 'Warning', reason, message });
export const normal = (reason: string, message: string): EventLike => ({ type: 'Normal', reason, message });
