import { describe, expect, it } from 'vitest';
import { findGuidance, guidanceForReason, requireGuidance } from './registry';

describe('findGuidance: condition status', () => {
  it('a status only narrows entries written for a status; other entries are still found', () => {
    // Container states have no status of their own: a status passed along does not hide them.
    const entry = findGuidance('container-waiting', 'CrashLoopBackOff', 'True');
    expect(entry?.id).toBe('waiting-crashloopbackoff');
    expect(findGuidance('pod-phase', 'Failed', 'False')?.id).toBe('pod-phase-failed');
  });

  it('a condition alias finds the entry for the status asked for', () => {
    expect(findGuidance('node-condition', 'NodeStatusUnknown', 'Unknown')?.id).toBe(
      'node-condition-ready-unknown',
    );
    expect(findGuidance('node-condition', 'KubeletNotReady', 'False')?.id).toBe('node-condition-ready-false');
    expect(findGuidance('node-condition', 'KubeletNotReady', 'True')).toBeUndefined();
  });
});

describe('guidanceForReason: aliases and admission reasons', () => {
  it('any alias of an entry finds it, not only an entry whose every alias is that word', () => {
    // PodScheduled has two aliases (Unschedulable, SchedulingGated); KernelOops has two as well.
    expect(guidanceForReason('SchedulingGated')?.id).toBe('pod-condition-podscheduled-false');
    expect(guidanceForReason('unschedulable')?.id).toBe('pod-condition-podscheduled-false');
    expect(guidanceForReason('KernelDeadlock')?.id).toBe('event-kerneloops');
    expect(guidanceForReason('FailedGetExternalMetric')?.id).toBe('event-failedgetresourcemetric');
  });

  it('an exact match in a less preferred subject beats an alias in a more preferred one', () => {
    // FailedCreate is an event reason's own match and only an alias of a deployment condition.
    expect(guidanceForReason('FailedCreate')?.id).toBe('event-failedcreate');
    expect(guidanceForReason('FailedCreate', 'deployment-condition')?.id).toBe('event-failedcreate');
    // InvalidImageName: the waiting state's match, an alias of the InspectFailed event.
    expect(guidanceForReason('InvalidImageName', 'event-reason')?.id).toBe('waiting-invalidimagename');
  });

  it('a preferred subject wins a tie of exact matches, the others keep their priority', () => {
    expect(guidanceForReason('Evicted')?.id).toBe('terminated-evicted');
    expect(guidanceForReason('Evicted', 'event-reason')?.id).toBe('event-evicted');
    expect(guidanceForReason('Failed')?.id).toBe('event-failed');
    expect(guidanceForReason('Failed', 'pod-phase')?.id).toBe('pod-phase-failed');
    // A preference for a subject that has no such entry changes nothing.
    expect(guidanceForReason('Failed', 'exit-code')?.id).toBe('event-failed');
  });

  it('only a reason that starts with OutOf is read as an admission refusal', () => {
    expect(guidanceForReason('OutOfexample.com/widget')?.id).toBe('event-outofcpu');
    expect(guidanceForReason('NodeOutOfDisk')).toBeUndefined();
    expect(guidanceForReason('RanOutOfIdeas')).toBeUndefined();
    // "OutOf" with nothing after it names no resource.
    expect(guidanceForReason('OutOf')).toBeUndefined();
  });
});

describe('the kinds beyond the pod', () => {
  it('a bare word keeps meaning what it meant for pods, nodes and Deployments', () => {
    expect(guidanceForReason('Pending')?.id).toBe('pod-phase-pending');
    expect(guidanceForReason('Ready')?.subject).toBe('pod-condition');
    expect(guidanceForReason('Available')?.id).toBe('deployment-condition-available-false');
    expect(guidanceForReason('ReplicaFailure')?.id).toBe('deployment-condition-replicafailure');
  });

  it('asked by subject, each kind finds its own entry', () => {
    expect(guidanceForReason('Pending', 'pvc-status')?.id).toBe('pvc-status-pending');
    expect(guidanceForReason('Ready', 'object-condition')?.id).toBe('object-condition-ready-false');
    expect(findGuidance('object-condition', 'Ready', 'True')).toBeUndefined();
    expect(findGuidance('hpa-condition', 'TooManyReplicas', 'True')?.id).toBe(
      'hpa-condition-scalinglimited-true',
    );
    expect(findGuidance('replicaset-condition', 'FailedCreate')?.id).toBe(
      'replicaset-condition-replicafailure-true',
    );
    expect(guidanceForReason('NoAddress')?.id).toBe('ingress-status-noaddress');
    expect(guidanceForReason('StorageClassNotFound')?.id).toBe('pvc-status-storageclassnotfound');
    expect(guidanceForReason('ScalingActive')?.id).toBe('hpa-condition-scalingactive-false');
  });
});

describe('requireGuidance', () => {
  it('gives the entry an explainer relies on, and fails loudly for one that is not there', () => {
    expect(requireGuidance('pvc-status', 'Lost').id).toBe('pvc-status-lost');
    expect(() => requireGuidance('pvc-status', 'Nope')).toThrow('no guidance entry for pvc-status Nope');
  });
});
