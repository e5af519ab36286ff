import type { Diagnosis } from '../../../src-shared/contract/diagnosis-operations';
import { diagnosisOf } from '../../api/diagnosis';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { type ResourceRef, useRoute } from '../../state/route';
import { Section } from '../common/Section';
import { changeSentence, clockText, onsetText } from './changed-before';

/**
 * "Changed before it started failing" (issue 27 §4): for a failing object, the recorded changes of
 * the objects related to it in the window before its failure began, likeliest cause first, each
 * with a link to its diff in the changed object's History tab, and a link to the first failed
 * run's logs when Skiff kept them. Asked again when the object changes and every 30 s. Shows
 * nothing when the object is not failing or the diagnosis cannot be had (the explanation above
 * still says what is wrong).
 */

const SHOWN = 5;

function KeptLogsLink({ kept }: { kept: NonNullable<Diagnosis['keptLogs']> }) {
  const select = useRoute((s) => s.select);
  const openLogs = useRoute((s) => s.openLogs);
  const selected = useRoute((s) => s.selected);
  const open = () => {
    if (selected?.kind !== 'pod' || selected.name !== kept.pod || selected.namespace !== kept.namespace)
      select({ kind: 'pod', name: kept.pod, namespace: kept.namespace }, 'logs');
    openLogs({ container: kept.container, previous: false });
  };
  return (
    <p className="changed-before-logs">
      The first failed run ({kept.container}, run {kept.restartCount}
      {kept.exitCode !== undefined ? `, exit code ${kept.exitCode}` : ''}, {kept.reason} at{' '}
      {clockText(kept.finishedAt)}) was kept by Skiff:{' '}
      <button type="button" className="link" onClick={open} data-testid="changed-before-kept-logs">
        read its {kept.lines} lines
      </button>
    </p>
  );
}

export function ChangedBefore({
  scope,
  target,
  version,
}: {
  scope: Scope;
  target: ResourceRef;
  /** The object's resourceVersion: a change asks again at once. */
  version: string | undefined;
}) {
  const openHistory = useRoute((s) => s.openHistory);
  const key = `${scope.clusterId}/diagnosis/${target.kind}/${target.namespace ?? ''}/${target.name}/${version ?? ''}`;
  const diagnosis = usePolling(key, (signal) => diagnosisOf(api(), scope, target, signal), {
    intervalMs: 30_000,
    keepPrevious: true,
  });
  const d = diagnosis.data;
  if (!d?.onset) return null;
  const onset = onsetText(d);
  const shown = d.changesBefore.slice(0, SHOWN);
  return (
    <Section id="changed-before" title="Changed before it started failing">
      <div data-testid="changed-before" data-onset={d.onset}>
        {shown.length === 0 ? (
          <p className="muted">
            Nothing Skiff recorded among the related objects changed in the window before {onset}.
          </p>
        ) : (
          <ul className="changed-before">
            {shown.map((c) => (
              <li
                key={`${c.ref.resourceType}/${c.ref.namespace ?? ''}/${c.ref.name}/${c.resourceVersion}`}
                data-relation={c.relation}
              >
                <span className="changed-before-text">{changeSentence(c, onset)}</span>{' '}
                <button
                  type="button"
                  className="link"
                  aria-label={`Diff of ${c.ref.kind} ${c.ref.name} at ${clockText(c.time)}`}
                  onClick={() =>
                    openHistory(
                      {
                        kind: c.ref.resourceType,
                        name: c.ref.name,
                        ...(c.ref.namespace ? { namespace: c.ref.namespace } : {}),
                      },
                      { to: c.time },
                    )
                  }
                >
                  diff
                </button>
              </li>
            ))}
          </ul>
        )}
        {d.changesBefore.length > SHOWN && (
          <p className="muted">
            {d.changesBefore.length - SHOWN} more changes, less likely causes, are left out.
          </p>
        )}
        {d.hidden !== undefined && (
          <p className="muted">{d.hidden} changes of objects you may not read are not shown.</p>
        )}
        {d.keptLogs && <KeptLogsLink kept={d.keptLogs} />}
      </div>
    </Section>
  );
}
