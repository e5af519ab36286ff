import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { NAMESPACED_TYPES, RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import { countOf, type Scope } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { view } from '../../../kube/meta';
import { api } from '../../../state/connection';
import { useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { namespacePhase, namespaceTone } from './status';
import type { Namespace } from './types';

export function NamespaceDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const ns = view<Namespace>(wrapper.resource);
  const name = ns.metadata.name;
  const openList = useRoute((s) => s.openList);
  const counts = usePolling(
    `${scope.clusterId}/ns-counts/${name}`,
    async (signal) => {
      const n = await Promise.all(NAMESPACED_TYPES.map((k) => countOf(api(), scope, k, name, signal)));
      return new Map(NAMESPACED_TYPES.map((k, i) => [k, n[i]!]));
    },
    { intervalMs: 15_000 },
  );
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
      <Section id="contents" title="Contents">
        <ul className="counters">
          {NAMESPACED_TYPES.map((k) => (
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
