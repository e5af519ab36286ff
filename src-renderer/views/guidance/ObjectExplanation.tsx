import type { Finding } from '../../../src-shared/guidance';
import { explanationOf } from '../../api/explain';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import type { ResourceRef } from '../../state/route';
import { GuidanceCard, StepLinks } from './GuidanceCard';

/**
 * "What is wrong with this object", for any kind, as the service explains it from its caches
 * (`GET …/explanations/…`): a condition that is False, a claim with no StorageClass, a Warning
 * event, each with the knowledge base's entry and the steps that name other objects, linked and
 * marked missing when they do not exist. Asked again when the object changes, and every 15 s for
 * its events. Says nothing when all is well, or when the explanation cannot be had (the overview
 * shows the object's own status beside it).
 */

function title(f: Finding): string {
  if (f.source === 'condition')
    return `${f.reason} is not met${f.conditionReason ? `: ${f.conditionReason}` : ''}`;
  if (f.source === 'event') return `Event ${f.reason}`;
  return f.reason;
}

export function ObjectExplanation({
  scope,
  target,
  version,
}: {
  scope: Scope;
  target: ResourceRef;
  /** The object's resourceVersion: a change asks again at once. */
  version: string | undefined;
}) {
  const key = `${scope.clusterId}/explain/${target.kind}/${target.namespace ?? ''}/${target.name}/${version ?? ''}`;
  const findings = usePolling(
    key,
    async (signal) => (await explanationOf(api(), scope, target, signal)).findings,
    { intervalMs: 15_000, keepPrevious: true },
  );
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
                  name: target.name,
                  ...(target.namespace ? { namespace: target.namespace } : {}),
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
