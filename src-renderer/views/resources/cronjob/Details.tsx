import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { age, timestamp } from '../../../kube/format';
import { view } from '../../../kube/meta';
import { useRoute } from '../../../state/route';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import type { CronJob } from './types';

export function CronJobDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const c = view<CronJob>(wrapper.resource);
  const select = useRoute((s) => s.select);
  const active = c.status?.active ?? [];
  const ns = c.metadata.namespace;
  return (
    <>
      <Section id="schedule" title="Schedule">
        <KeyValue
          pairs={[
            ['Schedule', <code key="s">{c.spec?.schedule ?? ''}</code>],
            ['Time zone', c.spec?.timeZone ?? 'the controller manager’s'],
            ['Suspended', c.spec?.suspend ? 'yes' : 'no'],
            ['Concurrency policy', c.spec?.concurrencyPolicy ?? 'Allow'],
            [
              'Starting deadline',
              c.spec?.startingDeadlineSeconds !== undefined ? `${c.spec.startingDeadlineSeconds}s` : null,
            ],
            [
              'Last schedule',
              c.status?.lastScheduleTime
                ? `${timestamp(c.status.lastScheduleTime)} (${age(c.status.lastScheduleTime)} ago)`
                : 'never',
            ],
            ['Last success', c.status?.lastSuccessfulTime ? timestamp(c.status.lastSuccessfulTime) : null],
            [
              'History kept',
              `${c.spec?.successfulJobsHistoryLimit ?? 3} successful, ${c.spec?.failedJobsHistoryLimit ?? 1} failed`,
            ],
            [
              'Active jobs',
              active.length === 0 ? (
                'none'
              ) : (
                <span key="a">
                  {active.map((j) => (
                    <button
                      key={j.name}
                      type="button"
                      className="link"
                      onClick={() => select({ kind: 'job', name: j.name, ...(ns ? { namespace: ns } : {}) })}
                    >
                      {j.name}
                    </button>
                  ))}
                </span>
              ),
            ],
          ]}
        />
      </Section>
      <PodTemplateSection template={c.spec?.jobTemplate?.spec?.template} />
      <Metadata obj={wrapper.resource} />
    </>
  );
}
