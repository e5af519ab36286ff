import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { age, timestamp } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { Badge } from '../../common/Badge';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { ChangedBefore } from '../../guidance/ChangedBefore';
import { ConditionsTable } from '../../guidance/ConditionGuidance';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { Counters, PodsButton } from '../detail/Workload';
import { jobDuration, jobStatus, jobTone } from './status';
import type { Job } from './types';

export function JobDetails({ wrapper, scope }: { wrapper: ResourceWrapper; scope: Scope }) {
  const j = view<Job>(wrapper.resource);
  const s = j.status ?? {};
  const status = jobStatus(j);
  return (
    <>
      <ChangedBefore
        scope={scope}
        target={{ kind: 'job', name: j.metadata.name, namespace: j.metadata.namespace ?? '' }}
        version={j.metadata.resourceVersion}
      />
      <Section
        id="job"
        title="Completions"
        actions={<PodsButton wrapper={wrapper} selector={j.spec?.selector} />}
      >
        <p>
          <Badge tone={jobTone(status)}>{status}</Badge>
        </p>
        <Counters
          items={[
            ['completions wanted', j.spec?.completions ?? 1],
            ['succeeded', s.succeeded, 'ok'],
            ['active', s.active ?? 0],
            ['failed', s.failed, (s.failed ?? 0) > 0 ? 'warn' : 'ok'],
          ]}
        />
        <KeyValue
          pairs={[
            ['Parallelism', String(j.spec?.parallelism ?? 1)],
            ['Backoff limit', String(j.spec?.backoffLimit ?? 6)],
            [
              'Active deadline',
              j.spec?.activeDeadlineSeconds !== undefined ? `${j.spec.activeDeadlineSeconds}s` : null,
            ],
            ['Started', s.startTime ? `${timestamp(s.startTime)} (${age(s.startTime)} ago)` : null],
            ['Completed', s.completionTime ? timestamp(s.completionTime) : null],
            ['Duration', jobDuration(j)],
          ]}
        />
      </Section>
      <Section id="conditions" title="Conditions">
        <ConditionsTable
          conditions={s.conditions?.filter((c) => c.type !== 'SuccessCriteriaMet')}
          subject="pod-condition"
          values={{ name: j.metadata.name }}
        />
      </Section>
      <PodTemplateSection template={j.spec?.template} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
