import { describe, expect, it } from 'vitest';
import {
  describeAction,
  fillPlaceholders,
  findGuidance,
  type GuidanceSubject,
  guidanceForReason,
  listGuidance,
} from './index';

const REQUIRED: Record<GuidanceSubject, string[]> = {
  'pod-phase': ['Pending', 'Running', 'Succeeded', 'Failed', 'Unknown'],
  'container-waiting': [
    'ContainerCreating',
    'PodInitializing',
    'CrashLoopBackOff',
    'ImagePullBackOff',
    'ErrImagePull',
    'InvalidImageName',
    'CreateContainerConfigError',
    'CreateContainerError',
    'RunContainerError',
    'ErrImageNeverPull',
  ],
  'container-terminated': [
    'OOMKilled',
    'Error',
    'Completed',
    'ContainerCannotRun',
    'DeadlineExceeded',
    'Evicted',
  ],
  'node-condition': ['Ready', 'MemoryPressure', 'DiskPressure', 'PIDPressure', 'NetworkUnavailable'],
  'pod-condition': ['PodScheduled', 'Initialized', 'ContainersReady', 'Ready'],
  'deployment-condition': ['Available', 'Progressing', 'ReplicaFailure', 'ProgressDeadlineExceeded'],
  'event-reason': [
    'FailedScheduling',
    'Failed',
    'ErrImagePull',
    'ImagePullBackOff',
    'BackOff',
    'CrashLoopBackOff',
    'Error',
    'OOMKilled',
    'OOMKilling',
    'FailedMount',
    'FailedAttachVolume',
    'VolumeResizeFailed',
    'Unhealthy',
    'ProbeWarning',
    'Started',
    'Killing',
    'Pulled',
    'Pulling',
    'Created',
    'Scheduled',
    'Evicted',
    'Preempted',
    'NodeNotReady',
    'FailedCreate',
    'FailedKillPod',
    'BackoffLimitExceeded',
    'DeadlineExceeded',
    'SuccessfulCreate',
    'ScalingReplicaSet',
    'NetworkNotReady',
    'FailedSync',
    'InvalidDiskCapacity',
    'Rebooted',
    'NodeHasInsufficientMemory',
    'EvictionThresholdMet',
    // beyond the minimum list
    'FailedCreatePodSandBox',
    'SandboxChanged',
    'ExceededGracePeriod',
    'FailedPostStartHook',
    'FailedPreStopHook',
    'SystemOOM',
    'TaintManagerEviction',
    'OutOfcpu',
    'OutOfmemory',
    'UnexpectedAdmissionError',
    'FreeDiskSpaceFailed',
    'ImageGCFailed',
    'ContainerGCFailed',
    'NodeHasDiskPressure',
    'NodeNotSchedulable',
    'ProvisioningFailed',
    'FailedBinding',
    'WaitForFirstConsumer',
    'FailedGetResourceMetric',
    'NotTriggerScaleUp',
    'SyncLoadBalancerFailed',
    'MissSchedule',
    'JobAlreadyActive',
  ],
  'exit-code': ['0', '1', '2', '126', '127', '130', '134', '137', '139', '143', '255'],
  'pvc-status': ['Pending', 'Lost', 'StorageClassNotFound', 'NoStorageClass'],
  'ingress-status': ['NoAddress', 'ServiceNotFound'],
  'hpa-condition': ['ScalingActive', 'AbleToScale', 'ScalingLimited'],
  'replicaset-condition': ['ReplicaFailure'],
  'object-condition': ['Ready', 'Available'],
};

describe('knowledge base integrity', () => {
  const all = listGuidance();

  it('has many entries with unique, URL-safe ids', () => {
    expect(all.length).toBeGreaterThan(100);
    const ids = all.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^[a-z0-9-]+$/);
  });

  it('has no two entries for the same subject, match and status', () => {
    const keys = all.map((e) => `${e.subject}|${e.match.toLowerCase()}|${e.status ?? ''}`);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it.each(all.map((e) => [e.id, e] as const))('%s is complete', (_id, e) => {
    expect(e.title.trim()).not.toBe('');
    expect(e.match.trim()).not.toBe('');
    expect(e.meaning.trim().length).toBeGreaterThan(20);
    expect(e.causes.length).toBeGreaterThan(0);
    for (const c of e.causes) expect(c.trim()).not.toBe('');
    expect(e.checks.length).toBeGreaterThan(0);
    for (const c of e.checks) {
      expect(c.text.trim()).not.toBe('');
      if (c.action) expect(describeAction(c.action)).not.toBe('');
    }
    if (e.subject.endsWith('-condition')) expect(e.status).toBeDefined();
    else expect(e.status).toBeUndefined();
    // Problems must give at least one concrete pointer (button or command).
    if (e.severity !== 'info') {
      expect(e.checks.some((c) => c.action !== undefined || c.text.includes('`'))).toBe(true);
    }
  });

  for (const [subject, matches] of Object.entries(REQUIRED) as Array<[GuidanceSubject, string[]]>) {
    it.each(matches)(`${subject}: %s is covered`, (match) => {
      const entry = findGuidance(subject, match);
      expect(entry, `${subject}/${match}`).toBeDefined();
      expect(entry?.subject).toBe(subject);
    });
  }
});

describe('findGuidance', () => {
  it('distinguishes condition statuses', () => {
    expect(findGuidance('node-condition', 'Ready', 'False')?.id).toBe('node-condition-ready-false');
    expect(findGuidance('node-condition', 'Ready', 'Unknown')?.id).toBe('node-condition-ready-unknown');
    expect(findGuidance('node-condition', 'Ready', 'True')).toBeUndefined();
    expect(findGuidance('node-condition', 'MemoryPressure', 'False')).toBeUndefined();
    expect(findGuidance('node-condition', 'MemoryPressure', 'True')?.severity).toBe('warning');
    expect(findGuidance('pod-condition', 'Ready', 'False')?.id).toBe('pod-condition-ready-false');
  });
  it('is case-insensitive and knows aliases', () => {
    expect(findGuidance('container-waiting', 'crashloopbackoff')?.id).toBe('waiting-crashloopbackoff');
    expect(findGuidance('deployment-condition', 'ProgressDeadlineExceeded')?.match).toBe('Progressing');
  });
  it('returns undefined for unknown values', () => {
    expect(findGuidance('pod-phase', 'Exploded')).toBeUndefined();
  });
});

describe('guidanceForReason', () => {
  it('finds any subject, case-insensitively', () => {
    expect(guidanceForReason('CRASHLOOPBACKOFF')?.id).toBe('waiting-crashloopbackoff');
    expect(guidanceForReason('FailedScheduling')?.subject).toBe('event-reason');
    expect(guidanceForReason('MemoryPressure')?.subject).toBe('node-condition');
    expect(guidanceForReason('ProgressDeadlineExceeded')?.id).toBe('deployment-condition-progressing-false');
    expect(guidanceForReason('NodeStatusUnknown')?.id).toBe('node-condition-ready-unknown');
  });
  it('prefers the container state, unless told otherwise', () => {
    expect(guidanceForReason('OOMKilled')?.subject).toBe('container-terminated');
    expect(guidanceForReason('OOMKilled', 'event-reason')?.subject).toBe('event-reason');
    expect(guidanceForReason('FailedCreate')?.id).toBe('event-failedcreate');
  });
  it('maps every OutOf<resource> admission reason', () => {
    expect(guidanceForReason('OutOfnvidia.com/gpu')?.id).toBe('event-outofcpu');
    expect(guidanceForReason('OutOfhugepages-2Mi')?.id).toBe('event-outofcpu');
  });
  it('returns undefined for unknown reasons', () => {
    expect(guidanceForReason('SomethingNobodyEmits')).toBeUndefined();
  });
});

describe('helpers', () => {
  it('labels every action kind', () => {
    expect(describeAction({ kind: 'open-logs', previous: true })).toMatch(/previous/);
    expect(describeAction({ kind: 'show-field', path: 'spec.imagePullSecrets' })).toContain(
      'spec.imagePullSecrets',
    );
  });
  it('fills placeholders and leaves unknown ones', () => {
    expect(
      fillPlaceholders('kubectl -n <namespace> logs <pod> -c <container> <other>', {
        namespace: 'ns',
        pod: 'p',
      }),
    ).toBe('kubectl -n ns logs p -c <container> <other>');
  });
});
