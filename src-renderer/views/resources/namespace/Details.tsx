import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { kindCounts } from '../../../api/relations';
import { usePolling } from '../../../hooks/usePolling';
import { entryFor } from '../../../kube/kind-catalog';
import { view } from '../../../kube/meta';
import { api } from '../../../state/connection';
import { useKinds } from '../../../state/kinds';
import { useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { namespacePhase, namespaceTone } from './status';
import type { Namespace } from './types';

/**
 * A namespace: its phase, how many objects of each namespaced kind it holds (kinds it has none of
 * are left out), each opening that kind's list scoped to it, and a button that scopes every list to it.
 */
export function NamespaceDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const ns = view<Namespace>(wrapper.resource);
  const name = ns.metadata.name;
  const openList = useRoute((s) => s.openList);
  const kinds = useKinds((s) => s.entries);
  const counts = usePolling(
    `${scope.clusterId}/ns-counts/${name}`,
    (signal) => kindCounts(api(), scope, name, signal),
    { intervalMs: 15_000 },
  );
  const held = [...(counts.data ?? new Map<string, number>())]
    .filter(([, n]) => n > 0)
    .flatMap(([t, n]) => {
      const entry = entryFor(kinds, t);
      return entry ? [{ entry, n }] : [];
    })
    .sort((a, b) => a.entry.label.plural.localeCompare(b.entry.label.plural));
  const phase = namespacePhase(ns);
  return (
    <>
      <Section id="status" title="Status">
        <p>
          <Badge tone={namespaceTone(phase)}>{phase}</Badge>
          {phase === 'Terminating' &&
            ' The namespace is being deleted; it waits for every object in it to go.'}
        </p>
      </Section>
      <Section
        id="contents"
        title="Contents"
        actions={
          <button type="button" onClick={() => openList('pod', name)}>
            Scope every list to {name}
          </button>
        }
      >
        {counts.data === undefined ? (
          <p className="muted">{counts.error ? 'The counts could not be read.' : 'Counting…'}</p>
        ) : held.length === 0 ? (
          <p className="muted">Nothing lives in this namespace.</p>
        ) : (
          <ul className="counters">
            {held.map(({ entry, n }) => (
              <li key={entry.resourceType} className="counter">
                <button
                  type="button"
                  className="counter-button"
                  onClick={() => openList(entry.resourceType, name)}
                >
                  <span className="counter-n">{n}</span>
                  <span className="counter-label">{entry.label.plural}</span>
                </button>
              </li>
            ))}
          </ul>
        )}
      </Section>
      <Metadata obj={wrapper.resource} />
    </>
  );
}
