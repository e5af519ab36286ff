import type { ResourceWrapper } from '../../../../src-shared/contract/models';
import type { Scope } from '../../../api/queries';
import { selectorText } from '../../../kube/owner';
import { view, type Workload } from '../../../kube/types';
import { KeyValue } from '../../common/KeyValue';
import { Section } from '../../common/Section';
import { Metadata } from '../detail/Metadata';
import { PodTemplateSection } from '../detail/PodTemplate';
import { Counters, PodsButton } from '../detail/Workload';

export function DaemonSetDetails({ wrapper }: { wrapper: ResourceWrapper; scope: Scope }) {
  const w = view<Workload>(wrapper.resource);
  const s = w.status ?? {};
  const desired = s.desiredNumberScheduled ?? 0;
  return (
    <>
      <Section
        id="replicas"
        title="Pods per node"
        actions={<PodsButton wrapper={wrapper} selector={w.spec?.selector} />}
      >
        <Counters
          items={[
            ['desired', desired],
            ['current', s.currentNumberScheduled],
            ['ready', s.numberReady, (s.numberReady ?? 0) < desired ? 'warn' : 'ok'],
            ['up-to-date', s.updatedNumberScheduled],
            ['available', s.numberAvailable, (s.numberAvailable ?? 0) < desired ? 'warn' : 'ok'],
            ['misscheduled', s.numberMisscheduled, (s.numberMisscheduled ?? 0) > 0 ? 'warn' : 'ok'],
          ]}
        />
      </Section>
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
