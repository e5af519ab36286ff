import type { ReactNode } from 'react';
import { explainPod, type PodFinding, type PodLike } from '../../../src-shared/guidance';
import type { Scope } from '../../api/queries';
import type { Pod } from '../resources/pod/types';
import { ExitCodeNote } from './ExitCodeNote';
import { GuidanceCard, StepLinks } from './GuidanceCard';
import { SchedulingBreakdown } from './SchedulingBreakdown';
import { useCheckedSteps } from './useCheckedSteps';

function findingTitle(f: PodFinding): string {
  const where = f.container ? `${f.initContainer ? 'Init container' : 'Container'} ${f.container}` : 'Pod';
  switch (f.source) {
    case 'phase':
      return `Pod phase: ${f.reason}`;
    case 'pod-reason':
      return `Pod reason: ${f.reason}`;
    case 'waiting':
      return `${where} is waiting: ${f.reason}`;
    case 'terminated':
      return `${where} terminated: ${f.reason}`;
    case 'last-terminated':
      return `${where} last terminated: ${f.reason}`;
    case 'condition':
      return `Condition ${f.reason} is not met`;
  }
}

const RANK = { error: 0, warning: 1, info: 2 } as const;
// Within a severity the most specific finding leads: a container's state says more than the pod's phase.
const SOURCE_RANK = {
  waiting: 0,
  terminated: 1,
  'last-terminated': 2,
  'pod-reason': 3,
  condition: 4,
  phase: 5,
} as const;

/** One finding; its steps that name objects (a claim, a ConfigMap) are looked up, so a missing one is marked. */
function Finding({ f, pod, first, scope }: { f: PodFinding; pod: Pod; first: boolean; scope: Scope }) {
  const steps = useCheckedSteps(scope, f.checks ?? []);
  const values = {
    namespace: pod.metadata.namespace,
    pod: pod.metadata.name,
    name: pod.metadata.name,
    ...(f.container ? { container: f.container } : {}),
    ...(pod.spec?.nodeName ? { node: pod.spec.nodeName } : {}),
  };
  return (
    <li className={`finding finding-${f.severity}`} data-finding={f.reason}>
      <p className="finding-title">
        <span className={`sev sev-${f.severity}`}>{f.severity}</span> {findingTitle(f)}
      </p>
      {f.message && <blockquote className="finding-message">{f.message}</blockquote>}
      {f.scheduling && <SchedulingBreakdown info={f.scheduling} />}
      {f.exitCode && f.exitCode.code !== 0 && <ExitCodeNote exit={f.exitCode} />}
      {f.guidance && (
        <GuidanceCard
          entry={f.guidance}
          values={values}
          open={first}
          steps={steps}
          {...(f.container ? { container: f.container } : {})}
        />
      )}
      {!f.guidance && steps.length > 0 && <StepLinks steps={steps} />}
    </li>
  );
}

/**
 * Findings that only say the pod is not there yet (not ready, no sandbox, still Pending): true
 * but not why. When one of these leads, the pod's warning events say more (a volume that will
 * not mount keeps PodReadyToStartContainers False), so the events lead instead.
 */
function saysOnlyNotYet(f: PodFinding): boolean {
  if (f.source === 'phase') return true;
  return f.source === 'condition' && f.reason !== 'PodScheduled' && f.reason !== 'DisruptionTarget';
}

/**
 * "Why is this pod unhealthy?": the knowledge base's findings for the pod, the worst first.
 * A healthy pod gets one line, with the phase explanation folded away. `warnings` renders what
 * the cluster reported about the pod; `lead` says whether it comes first, with its first
 * explanation open.
 */
export function PodExplanation({
  pod,
  scope,
  warnings,
}: {
  pod: Pod;
  scope: Scope;
  warnings?: (lead: boolean) => ReactNode;
}) {
  const findings = explainPod(pod as PodLike);
  const problems = findings
    .filter((f) => f.severity !== 'info')
    .sort((a, b) => RANK[a.severity] - RANK[b.severity] || SOURCE_RANK[a.source] - SOURCE_RANK[b.source]);
  if (problems.length === 0) {
    const phase = findings.find((f) => f.source === 'phase');
    return (
      <div className="diagnosis diagnosis-ok" data-testid="pod-explanation">
        <p>
          <strong>No problems found.</strong> The pod is {pod.status?.phase ?? 'in an unknown phase'} and
          nothing in its status points at trouble.
        </p>
        {phase?.guidance && (
          <GuidanceCard entry={phase.guidance} values={{ pod: pod.metadata.name }} open={false} />
        )}
        {warnings?.(false)}
      </div>
    );
  }
  const eventsLead = saysOnlyNotYet(problems[0]!);
  return (
    <div className="diagnosis" data-testid="pod-explanation">
      {eventsLead && warnings?.(true)}
      <ul className="findings">
        {problems.map((f, i) => (
          <Finding
            key={`${f.source}-${f.container ?? ''}-${f.reason}`}
            f={f}
            pod={pod}
            scope={scope}
            first={i === 0 && !eventsLead}
          />
        ))}
      </ul>
      {!eventsLead && warnings?.(false)}
    </div>
  );
}
