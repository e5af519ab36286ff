import type { KubeObject } from '../../../src-shared/contract/models';
import {
  type EventLike,
  type ExplainContext,
  explainObject,
  type Finding,
  type GuidanceRef,
  type ObjectLike,
} from '../../../src-shared/guidance';
import { ApiError } from '../../api';
import { getOne, listAll, objectEvents, type Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { GuidanceCard, StepLinks } from './GuidanceCard';

/**
 * "What is wrong with this object", for any kind: the shared explainer's findings (a condition
 * that is False, a claim with no StorageClass, a Warning event), each with the knowledge base's
 * entry and the steps that name other objects, linked and marked missing when they do not exist.
 * The explainer looks things up through the service: a 404 is "does not exist", any other failure
 * "cannot be known", so nothing is called missing for want of an answer. Says nothing when all is well.
 */

function context(scope: Scope, events: readonly EventLike[], signal: AbortSignal): ExplainContext {
  return {
    async find(ref: GuidanceRef) {
      try {
        return (await getOne(api(), scope, ref.resourceType, ref.name, ref.namespace, signal)).resource;
      } catch (err) {
        return err instanceof ApiError && err.problem.status === 404 ? null : undefined;
      }
    },
    async list(resourceType: string, namespace: string) {
      try {
        return (await listAll(api(), scope, resourceType, namespace, '', signal)).items.map(
          (w) => w.resource,
        );
      } catch {
        return undefined;
      }
    },
    events,
  };
}

async function explain(scope: Scope, obj: KubeObject, signal: AbortSignal): Promise<Finding[]> {
  const { name, namespace } = obj.metadata;
  const recorded = obj.kind
    ? await objectEvents(api(), scope, obj.kind, name, namespace, signal)
    : { items: [] };
  // The events endpoint answers newest first; the explainer reads them oldest first.
  const events = [...recorded.items].reverse().map((e) => ({
    type: e.type === 'WARNING' ? 'Warning' : 'Normal',
    reason: e.reason,
    message: e.message,
  }));
  return explainObject(obj as ObjectLike, context(scope, events, signal));
}

function title(f: Finding): string {
  if (f.source === 'condition')
    return `${f.reason} is not met${f.conditionReason ? `: ${f.conditionReason}` : ''}`;
  if (f.source === 'event') return `Event ${f.reason}`;
  return f.reason;
}

export function ObjectExplanation({ obj, scope }: { obj: KubeObject; scope: Scope }) {
  const key = `${scope.clusterId}/explain/${obj.metadata.uid ?? obj.metadata.name}/${obj.metadata.resourceVersion ?? ''}`;
  const findings = usePolling(key, (signal) => explain(scope, obj, signal), { intervalMs: 15_000 });
  const list = findings.data ?? [];
  if (list.length === 0) return null;
  return (
    <section className="section" aria-label="What is wrong" data-testid="object-explanation">
      <ul className="findings">
        {list.map((f, i) => (
          <li
            key={`${f.source}/${f.reason}`}
            className={`finding finding-${f.severity}`}
            data-finding={f.reason}
          >
            <p className="finding-title">
              <span className={`sev sev-${f.severity}`}>{f.source === 'event' ? 'event' : f.severity}</span>{' '}
              {title(f)}
            </p>
            {f.message && <blockquote className="finding-message">{f.message}</blockquote>}
            {f.guidance ? (
              <GuidanceCard
                entry={f.guidance}
                values={{
                  name: obj.metadata.name,
                  ...(obj.metadata.namespace ? { namespace: obj.metadata.namespace } : {}),
                }}
                open={i === 0}
                steps={f.checks ?? []}
              />
            ) : (
              f.checks && f.checks.length > 0 && <StepLinks steps={f.checks} />
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
