import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { selectorText } from '../../../../src-shared/kube/selector-text';
import type { Scope } from '../../../api/queries';
import { view } from '../../../kube/meta';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { ReplicaCounters } from '../detail/ReplicaCounters';
import type { StatefulSet } from './types';

export function StatefulSetDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const w = view<StatefulSet>(wrapper.resource);
  const s = w.status ?? {};
  return (
    <>
      <ReplicaCounters
        wrapper={wrapper}
        selector={w.spec?.selector}
        desired={w.spec?.replicas ?? 1}
        counts={[
          ['current', s.currentReplicas ?? s.replicas],
          ['updated', s.updatedReplicas],
          ['ready', s.readyReplicas, 'short'],
        ]}
      />
      <Section id="strategy" title="Update strategy">
        <KeyValue
          pairs={[
            ['Type', w.spec?.updateStrategy?.type ?? 'RollingUpdate'],
            ['Pod management', w.spec?.podManagementPolicy ?? 'OrderedReady'],
            ['Service', w.spec?.serviceName],
            ['Selector', <code key="s">{selectorText(w.spec?.selector) || 'none'}</code>],
          ]}
        />
      </Section>
      {s.conditions?.length ? (
        <Section id="conditions" title="Conditions">
          <ConditionsTable
            conditions={s.conditions}
            subject="deployment-condition"
            values={{ name: w.metadata.name }}
          />
        </Section>
      ) : null}
      <PodTemplateSection template={w.spec?.template} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
