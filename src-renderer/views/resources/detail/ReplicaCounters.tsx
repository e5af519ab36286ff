import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { LabelSelector } from '../../../kube/meta';
import { Section } from '../../common/Section';
import { Counters, PodsButton } from './Workload';

type CounterItem = Parameters<typeof Counters>[0]['items'][number];

/**
 * Which way a count can be wrong: `short` warns below the desired number (ready, available),
 * `over` warns at anything above zero (unavailable, misscheduled). Unmarked counts are facts.
 */
export type ReplicaCount = [label: string, n: number | undefined, trouble?: 'short' | 'over'];

/**
 * The replicas block of a deployment, statefulset or daemonset: desired first, then each count,
 * with the ones that fall short shown as warnings, and a button to the pods the selector picks.
 */
export function ReplicaCounters({
  wrapper,
  selector,
  desired,
  counts,
  title = 'Replicas',
}: {
  wrapper: ResourceWrapper;
  selector: LabelSelector | undefined;
  desired: number;
  counts: ReplicaCount[];
  title?: string;
}) {
  return (
    <Section id="replicas" title={title} actions={<PodsButton wrapper={wrapper} selector={selector} />}>
      <Counters
        items={[
          ['desired', desired],
          ...counts.map(([label, n, trouble]): CounterItem => {
            const v = n ?? 0;
            const bad = trouble === 'short' ? v < desired : trouble === 'over' ? v > 0 : false;
            return [label, n, trouble ? (bad ? 'warn' : 'ok') : undefined];
          }),
        ]}
      />
    </Section>
  );
}
