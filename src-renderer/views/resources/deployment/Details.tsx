import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { selectorText } from '../../../kube/owner';
import { view, type Workload } from '../../../kube/types';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { RecentWarnings } from '../../guidance/RecentWarnings';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { Counters, PodsButton } from '../detail/Workload';

export function DeploymentDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const d = view<Workload>(wrapper.resource);
  const s = d.status ?? {};
  const desired = d.spec?.replicas ?? 1;
  const unavailable = s.unavailableReplicas ?? Math.max(0, (s.replicas ?? 0) - (s.availableReplicas ?? 0));
  const ru = d.spec?.strategy?.rollingUpdate;
  return (
    <>
      <Section
        id="replicas"
        title="Replicas"
        actions={<PodsButton wrapper={wrapper} selector={d.spec?.selector} />}
      >
        <Counters
          items={[
            ['desired', desired],
            ['current', s.replicas],
            ['up-to-date', s.updatedReplicas],
            ['ready', s.readyReplicas, (s.readyReplicas ?? 0) < desired ? 'warn' : 'ok'],
            ['available', s.availableReplicas, (s.availableReplicas ?? 0) < desired ? 'warn' : 'ok'],
            ['unavailable', unavailable, unavailable > 0 ? 'warn' : 'ok'],
          ]}
        />
      </Section>
      <Section id="strategy" title="Strategy">
        <KeyValue
          pairs={[
            ['Type', d.spec?.strategy?.type ?? 'RollingUpdate'],
            ['Max surge', ru?.maxSurge !== undefined ? String(ru.maxSurge) : null],
            ['Max unavailable', ru?.maxUnavailable !== undefined ? String(ru.maxUnavailable) : null],
            [
              'Min ready seconds',
              d.spec?.minReadySeconds !== undefined ? String(d.spec.minReadySeconds) : null,
            ],
            [
              'Progress deadline',
              d.spec?.progressDeadlineSeconds !== undefined ? `${d.spec.progressDeadlineSeconds}s` : null,
            ],
            [
              'Revision history',
              d.spec?.revisionHistoryLimit !== undefined ? String(d.spec.revisionHistoryLimit) : null,
            ],
            ['Selector', <code key="s">{selectorText(d.spec?.selector) || 'none'}</code>],
          ]}
        />
      </Section>
      <Section id="conditions" title="Conditions">
        <ConditionsTable
          conditions={s.conditions}
          subject="deployment-condition"
          values={{ name: d.metadata.name, namespace: d.metadata.namespace }}
        />
        <RecentWarnings
          scope={scope}
          kind="deployment"
          name={d.metadata.name}
          namespace={d.metadata.namespace}
        />
      </Section>
      <PodTemplateSection template={d.spec?.template} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
