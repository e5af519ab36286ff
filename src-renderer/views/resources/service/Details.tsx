import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { view } from '../../../kube/meta';
import { useRoute } from '../../../state/route';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { externalIp } from './status';
import type { Service } from './types';

export function ServiceDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const svc = view<Service>(wrapper.resource);
  const openList = useRoute((s) => s.openList);
  const selector = Object.entries(svc.spec?.selector ?? {})
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  return (
    <>
      <Section
        id="service"
        title="Service"
        actions={
          <button
            type="button"
            disabled={!selector}
            onClick={() => openList('pod', svc.metadata.namespace ?? null, selector)}
          >
            Show selected pods
          </button>
        }
      >
        <KeyValue
          pairs={[
            ['Type', svc.spec?.type ?? 'ClusterIP'],
            ['Cluster IP', svc.spec?.clusterIPs?.join(', ') ?? svc.spec?.clusterIP],
            ['External', externalIp(svc)],
            ['Selector', selector ? <code key="s">{selector}</code> : 'none (endpoints are managed by hand)'],
            ['Session affinity', svc.spec?.sessionAffinity ?? 'None'],
          ]}
        />
      </Section>
      <Section id="ports" title="Ports">
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Port</th>
              <th scope="col">Target port</th>
              <th scope="col">Node port</th>
              <th scope="col">Protocol</th>
            </tr>
          </thead>
          <tbody>
            {(svc.spec?.ports ?? []).map((p) => (
              <tr key={`${p.port}-${p.protocol ?? 'TCP'}`}>
                <td>{p.name ?? '—'}</td>
                <td>{p.port}</td>
                <td>{p.targetPort ?? p.port}</td>
                <td>{p.nodePort ?? '—'}</td>
                <td>{p.protocol ?? 'TCP'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </Section>
      <Metadata obj={wrapper.resource} />
    </>
  );
}
