import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { age, formatBytes, formatCpu, parseQuantity, percent, timestamp } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ChangedBefore } from '../../guidance/ChangedBefore';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { PodExplanation } from '../../guidance/PodExplanation';
import { RecentWarnings } from '../../guidance/RecentWarnings';
import { UsageCharts } from '../../usage/UsageCharts';
import { ContainerCard } from '../detail/Containers';
import { Metadata, OwnerLink } from '../detail/Metadata';
import {
  ProbesSection,
  PullSecretsSection,
  ResourcesSection,
  SchedulingSection,
  VolumesSection,
} from '../detail/PodSpecSections';
import { podStatus, restarts, statusTone } from './status';
import type { Container, Pod } from './types';

function sum(
  containers: Container[] | undefined,
  which: 'requests' | 'limits',
  res: 'cpu' | 'memory',
): number {
  let total = 0;
  let any = false;
  for (const c of containers ?? []) {
    const v = c.resources?.[which]?.[res];
    if (v !== undefined) {
      total += parseQuantity(v);
      any = true;
    }
  }
  return any ? total : Number.NaN;
}

/** Current usage beside what the pod asked for and may use: the numbers that explain throttling and OOM kills. */
function Usage({ wrapper, pod }: { wrapper: ResourceWrapper; pod: Pod }) {
  const u = wrapper.usage;
  const cpu = parseQuantity(u?.cpu);
  const mem = parseQuantity(u?.memory);
  const rows: Array<[string, string, string, string]> = [
    [
      'CPU',
      u ? formatCpu(cpu) : '—',
      formatCpu(sum(pod.spec?.containers, 'requests', 'cpu')),
      formatCpu(sum(pod.spec?.containers, 'limits', 'cpu')),
    ],
    [
      'Memory',
      u ? formatBytes(mem) : '—',
      formatBytes(sum(pod.spec?.containers, 'requests', 'memory')),
      formatBytes(sum(pod.spec?.containers, 'limits', 'memory')),
    ],
  ];
  const memLimit = sum(pod.spec?.containers, 'limits', 'memory');
  return (
    <Section id="usage" title="Resource usage">
      {!u && (
        <p className="muted">
          No usage reported: the cluster's metrics API (metrics-server) did not answer for this pod, or it is
          not running.
        </p>
      )}
      <table className="table" data-testid="pod-usage">
        <thead>
          <tr>
            <th scope="col">Resource</th>
            <th scope="col">Current</th>
            <th scope="col">Requested</th>
            <th scope="col">Limit</th>
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={r[0]}>
              {r.map((v, i) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: fixed columns
                <td key={i}>{v}</td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
      {u && Number.isFinite(memLimit) && (
        <p className="muted">
          Memory is at {percent(mem, memLimit)} of its limit; at 100% the kernel kills the container
          (OOMKilled).
        </p>
      )}
    </Section>
  );
}

export function PodDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const pod = view<Pod>(wrapper.resource);
  const select = useRoute((s) => s.select);
  const status = podStatus(pod);
  const byName = new Map((pod.status?.containerStatuses ?? []).map((s) => [s.name, s]));
  const initByName = new Map((pod.status?.initContainerStatuses ?? []).map((s) => [s.name, s]));
  const node = pod.spec?.nodeName;
  return (
    <>
      <Section id="diagnosis" title="Explanation">
        <PodExplanation
          pod={pod}
          scope={scope}
          warnings={(lead) => (
            <RecentWarnings
              scope={scope}
              kind="pod"
              name={pod.metadata.name}
              namespace={pod.metadata.namespace}
              lead={lead}
              skipScheduling={pod.status?.conditions?.some(
                (c) => c.type === 'PodScheduled' && c.status === 'False',
              )}
            />
          )}
        />
      </Section>
      <ChangedBefore
        scope={scope}
        target={{ kind: 'pod', name: pod.metadata.name, namespace: pod.metadata.namespace ?? '' }}
        version={pod.metadata.resourceVersion}
      />
      <Section id="status" title="Status">
        <KeyValue
          pairs={[
            [
              'Status',
              <Badge key="s" tone={statusTone(status)}>
                {status}
              </Badge>,
            ],
            ['Phase', pod.status?.phase],
            ['Reason', pod.status?.reason],
            ['Message', pod.status?.message],
            ['Restarts', String(restarts(pod))],
            [
              'Node',
              node ? (
                <button
                  key="n"
                  type="button"
                  className="link"
                  onClick={() => select({ kind: 'node', name: node })}
                >
                  {node}
                </button>
              ) : (
                'not scheduled'
              ),
            ],
            ['Pod IP', pod.status?.podIP],
            ['Host IP', pod.status?.hostIP],
            ['QoS class', pod.status?.qosClass],
            [
              'Started',
              pod.status?.startTime
                ? `${timestamp(pod.status.startTime)} (${age(pod.status.startTime)} ago)`
                : null,
            ],
            [
              'Controlled by',
              pod.metadata.ownerReferences?.length ? <OwnerLink key="o" obj={wrapper.resource} /> : null,
            ],
          ]}
        />
      </Section>
      <Usage wrapper={wrapper} pod={pod} />
      {pod.metadata.namespace && (
        <UsageCharts
          scope={scope}
          subject={{ kind: 'pod', namespace: pod.metadata.namespace, name: pod.metadata.name }}
        />
      )}
      <Section id="conditions" title="Conditions">
        <ConditionsTable
          conditions={pod.status?.conditions}
          subject="pod-condition"
          values={{ pod: pod.metadata.name, namespace: pod.metadata.namespace, name: pod.metadata.name }}
        />
      </Section>
      {(pod.spec?.initContainers?.length ?? 0) > 0 && (
        <Section id="init-containers" title="Init containers">
          {pod.spec?.initContainers?.map((c) => (
            <ContainerCard key={c.name} c={c} status={initByName.get(c.name)} />
          ))}
        </Section>
      )}
      <Section id="containers" title="Containers">
        {(pod.spec?.containers ?? []).map((c) => (
          <ContainerCard key={c.name} c={c} status={byName.get(c.name)} />
        ))}
      </Section>
      <ProbesSection spec={pod.spec} />
      <ResourcesSection spec={pod.spec} />
      <VolumesSection spec={pod.spec} />
      <PullSecretsSection spec={pod.spec} />
      <SchedulingSection spec={pod.spec} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
