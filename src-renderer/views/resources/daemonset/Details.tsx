import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { selectorText } from '../../../../src-shared/kube/selector-text';
import type { Scope } from '../../../api/queries';
import { view } from '../../../kube/meta';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { ReplicaCounters } from '../detail/ReplicaCounters';
import type { DaemonSet } from './types';

export function DaemonSetDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const w = view<DaemonSet>(wrapper.resource);
  const s = w.status ?? {};
  return (
    <>
      <ReplicaCounters
        wrapper={wrapper}
        selector={w.spec?.selector}
        title="Pods per node"
        desired={s.desiredNumberScheduled ?? 0}
        counts={[
          ['current', s.currentNumberScheduled],
          ['ready', s.numberReady, 'short'],
          ['up-to-date', s.updatedNumberScheduled],
          ['available', s.numberAvailable, 'short'],
          ['misscheduled', s.numberMisscheduled, 'over'],
        ]}
      />
      <Section id="strategy" title="Update strategy">
        <KeyValue
          pairs={[
            ['Type', w.spec?.updateStrategy?.type ?? 'RollingUpdate'],
            [
              'Node selector',
              Object.entries(w.spec?.template?.spec?.nodeSelector ?? {})
                .map(([k, v]) => `${k}=${v}`)
                .join(', ') || 'none',
            ],
            ['Selector', <code key="s">{selectorText(w.spec?.selector) || 'none'}</code>],
          ]}
        />
      </Section>
      <PodTemplateSection template={w.spec?.template} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
