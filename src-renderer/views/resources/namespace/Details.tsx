import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import { countOf, type Scope } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { type Namespace, view } from '../../../kube/types';
import { api } from '../../../state/connection';
import { useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { Section } from '../../common/Section';
import { NAMESPACED_KINDS } from '../../navigation/kinds';
import { Metadata } from '../detail/Metadata';

export function NamespaceDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const ns = view<Namespace>(wrapper.resource);
  const name = ns.metadata.name;
  const openList = useRoute((s) => s.openList);
  const counts = usePolling(
    `${scope.clusterId}/ns-counts/${name}`,
    async (signal) => {
      const n = await Promise.all(NAMESPACED_KINDS.map((k) => countOf(api(), scope, k, name, signal)));
      return new Map(NAMESPACED_KINDS.map((k, i) => [k, n[i]!]));
    },
    { intervalMs: 15_000 },
  );
  const phase = ns.status?.phase ?? 'Unknown';
  return (
    <>
      <Section id="status" title="Status">
        <p>
          <Badge tone={phase === 'Active' ? 'ok' : 'warn'}>{phase}</Badge>
          {phase === 'Terminating' &&
            ' The namespace is being deleted; it waits for every object in it to go.'}
        </p>
      </Section>
      <Section id="contents" title="Contents">
        <ul className="counters">
          {NAMESPACED_KINDS.map((k) => (
            <li key={k} className="counter">
              <button type="button" className="counter-button" onClick={() => openList(k, name)}>
                <span className="counter-n">{counts.data?.get(k) ?? '…'}</span>
                <span className="counter-label">{RESOURCE_KINDS[k].plural}</span>
              </button>
            </li>
          ))}
        </ul>
      </Section>
      <Metadata obj={wrapper.resource} />
    </>
  );
}
