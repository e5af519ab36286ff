import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import { selectorText } from '../../../../src-shared/kube/selector-text';
import type { Scope } from '../../../api/queries';
import { view } from '../../../kube/meta';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ChangedBefore } from '../../guidance/ChangedBefore';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { RecentWarnings } from '../../guidance/RecentWarnings';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { ReplicaCounters } from '../detail/ReplicaCounters';
import type { Deployment } from './types';

export function DeploymentDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const d = view<Deployment>(wrapper.resource);
  const s = d.status ?? {};
  const unavailable = s.unavailableReplicas ?? Math.max(0, (s.replicas ?? 0) - (s.availableReplicas ?? 0));
  const ru = d.spec?.strategy?.rollingUpdate;
  return (
    <>
      <ChangedBefore
        scope={scope}
        target={{ kind: 'deployment', name: d.metadata.name, namespace: d.metadata.namespace ?? '' }}
        version={d.metadata.resourceVersion}
      />
      <ReplicaCounters
        wrapper={wrapper}
        selector={d.spec?.selector}
        desired={d.spec?.replicas ?? 1}
        counts={[
          ['current', s.replicas],
          ['up-to-date', s.updatedReplicas],
          ['ready', s.readyReplicas, 'short'],
          ['available', s.availableReplicas, 'short'],
          ['unavailable', unavailable, 'over'],
        ]}
      />
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
