import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { listAll, type Scope } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { formatQuantity, parseQuantity, percent } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { api } from '../../../state/connection';
import { useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { KeyValue } from '../../common/KeyValue';
import { Loading, ProblemNotice } from '../../common/Problem';
import { Section } from '../../common/Section';
import { ChangedBefore } from '../../guidance/ChangedBefore';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { UsageCharts } from '../../usage/UsageCharts';
import { Metadata } from '../detail/Metadata';
import { podStatus, statusTone } from '../pod/status';
import type { Pod } from '../pod/types';
import type { Node } from './types';

function podRequests(pods: Pod[], res: string, which: 'requests' | 'limits'): number {
  let total = 0;
  for (const p of pods) {
    // Finished pods hold no resources; the scheduler ignores them too.
    if (p.status?.phase === 'Succeeded' || p.status?.phase === 'Failed') continue;
    for (const c of p.spec?.containers ?? []) {
      const v = c.resources?.[which]?.[res];
      if (v !== undefined) total += parseQuantity(v) || 0;
    }
  }
  return total;
}

/**
 * Capacity, allocatable and what the pods on the node requested: the scheduler places by
 * requests against allocatable, never by live usage, which is what "Insufficient cpu" means.
 */
function Allocation({ node, scope }: { node: Node; scope: Scope }) {
  const select = useRoute((s) => s.select);
  const pods = usePolling(
    `${scope.clusterId}/pods-on/${node.metadata.name}`,
    async (signal) => {
      const all = await listAll(api(), scope, 'pod', null, '', signal);
      return all.items.filter((w) => view<Pod>(w.resource).spec?.nodeName === node.metadata.name);
    },
    { intervalMs: 15_000 },
  );
  const onNode = (pods.data ?? []).map((w) => view<Pod>(w.resource));
  const resources = Array.from(
    new Set([...Object.keys(node.status?.capacity ?? {}), ...Object.keys(node.status?.allocatable ?? {})]),
  );
  return (
    <>
      <Section id="allocatable" title="Capacity and allocatable">
        <table className="table" data-testid="node-allocatable">
          <thead>
            <tr>
              <th scope="col">Resource</th>
              <th scope="col">Capacity</th>
              <th scope="col">Allocatable</th>
              <th scope="col">Requested by pods</th>
              <th scope="col">Limits of pods</th>
            </tr>
          </thead>
          <tbody>
            {resources.map((r) => {
              const alloc = parseQuantity(node.status?.allocatable?.[r]);
              const req = pods.data ? podRequests(onNode, r, 'requests') : Number.NaN;
              const lim = pods.data ? podRequests(onNode, r, 'limits') : Number.NaN;
              const show = (n: number) =>
                r === 'pods'
                  ? String(onNode.length)
                  : r === 'cpu' || r === 'memory'
                    ? formatQuantity(r, String(n))
                    : String(n);
              return (
                <tr key={r}>
                  <th scope="row">{r}</th>
                  <td>{formatQuantity(r, node.status?.capacity?.[r])}</td>
                  <td>{formatQuantity(r, node.status?.allocatable?.[r])}</td>
                  <td>
                    {pods.data
                      ? `${show(r === 'pods' ? onNode.length : req)} (${percent(r === 'pods' ? onNode.length : req, alloc)})`
                      : '…'}
                  </td>
                  <td>{pods.data && r !== 'pods' ? `${show(lim)} (${percent(lim, alloc)})` : '—'}</td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </Section>
      <Section id="node-pods" title={`Pods on this node${pods.data ? ` (${onNode.length})` : ''}`}>
        {pods.error && <ProblemNotice error={pods.error} what="pods" />}
        {!pods.data && pods.loading && <Loading label="Loading pods…" />}
        {pods.data && (
          <ul className="plain-list">
            {onNode.map((p) => {
              const s = podStatus(p);
              return (
                <li key={`${p.metadata.namespace}/${p.metadata.name}`}>
                  <button
                    type="button"
                    className="link"
                    onClick={() =>
                      select({
                        kind: 'pod',
                        name: p.metadata.name,
                        ...(p.metadata.namespace ? { namespace: p.metadata.namespace } : {}),
                      })
                    }
                  >
                    {p.metadata.namespace}/{p.metadata.name}
                  </button>{' '}
                  <Badge tone={statusTone(s)}>{s}</Badge>
                </li>
              );
            })}
          </ul>
        )}
      </Section>
    </>
  );
}

export function NodeDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const node = view<Node>(wrapper.resource);
  const info = node.status?.nodeInfo;
  const taints = node.spec?.taints ?? [];
  return (
    <>
      <ChangedBefore
        scope={scope}
        target={{ kind: 'node', name: node.metadata.name }}
        version={node.metadata.resourceVersion}
      />
      <Section id="conditions" title="Conditions">
        <ConditionsTable
          conditions={node.status?.conditions}
          subject="node-condition"
          values={{ node: node.metadata.name, name: node.metadata.name }}
        />
      </Section>
      <Allocation node={node} scope={scope} />
      <UsageCharts scope={scope} subject={{ kind: 'node', name: node.metadata.name }} />
      <Section id="system-info" title="System info">
        <KeyValue
          pairs={[
            [
              'OS',
              info?.operatingSystem && info.osImage
                ? `${info.osImage} (${info.operatingSystem}/${info.architecture ?? ''})`
                : info?.osImage,
            ],
            ['Kernel version', info?.kernelVersion],
            ['Container runtime', info?.containerRuntimeVersion],
            ['Kubelet version', info?.kubeletVersion],
            ['Machine ID', info?.machineID],
          ]}
        />
      </Section>
      <Section id="addresses" title="Addresses">
        <KeyValue pairs={(node.status?.addresses ?? []).map((a) => [a.type, a.address])} />
      </Section>
      <Section id="taints" title="Taints and scheduling">
        <KeyValue
          pairs={[
            ['Unschedulable', node.spec?.unschedulable ? 'yes (cordoned)' : 'no'],
            [
              'Taints',
              taints.length
                ? taints.map((t) => `${t.key}${t.value ? `=${t.value}` : ''}:${t.effect}`).join(', ')
                : 'none',
            ],
            ['Pod CIDR', node.spec?.podCIDR],
          ]}
        />
      </Section>
      <Metadata obj={wrapper.resource} />
    </>
  );
}
