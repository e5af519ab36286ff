import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { selectorText } from '../../../kube/owner';
import { view, type Workload } from '../../../kube/types';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { Counters, PodsButton } from '../detail/Workload';

export function StatefulSetDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const w = view<Workload>(wrapper.resource);
  const s = w.status ?? {};
  const desired = w.spec?.replicas ?? 1;
  return (
    <>
      <Section
        id="replicas"
        title="Replicas"
        actions={<PodsButton wrapper={wrapper} selector={w.spec?.selector} />}
      >
        <Counters
          items={[
            ['desired', desired],
            ['current', s.currentReplicas ?? s.replicas],
            ['updated', s.updatedReplicas],
            ['ready', s.readyReplicas, (s.readyReplicas ?? 0) < desired ? 'warn' : 'ok'],
          ]}
        />
      </Section>
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
