/** The one-word status of a ref, kind by kind, in kubectl's words; nothing for what says nothing. */
import { describe, expect, it } from 'vitest';
import { podStatus, statusOf } from './status';

const cond = (type: string, status: string) => ({ status: { conditions: [{ type, status }] } });
const waiting = (reason: string) => ({ state: { waiting: { reason } } });
const terminated = (exitCode: number, reason?: string) => ({
  state: { terminated: { exitCode, ...(reason ? { reason } : {}) } },
});

describe('podStatus', () => {
  it('says Terminating for a pod being deleted, whatever else it says', () => {
    expect(podStatus({ metadata: { deletionTimestamp: 'x' }, status: { phase: 'Running' } })).toBe(
      'Terminating',
    );
  });

  it('names the first init container not done: its reason, else its place', () => {
    const inits = (...s: object[]) => ({ status: { phase: 'Pending', initContainerStatuses: s } });
    expect(podStatus(inits(terminated(0), waiting('CrashLoopBackOff')))).toBe('Init:CrashLoopBackOff');
    expect(podStatus(inits(terminated(1, 'Error')))).toBe('Init:Error');
    expect(podStatus(inits(terminated(2)))).toBe('Init:ExitCode:2');
    expect(podStatus(inits(terminated(0), waiting('PodInitializing')))).toBe('Init:1/2');
    expect(podStatus(inits(terminated(0), { state: { running: {} } }, {}))).toBe('Init:1/3');
    expect(podStatus(inits(terminated(0), terminated(0)))).toBe('Pending');
  });

  it('then the first container’s waiting or terminated reason, Completed aside, else the phase', () => {
    const cs = (...s: object[]) => ({ status: { phase: 'Running', containerStatuses: s } });
    expect(podStatus(cs({ state: { running: {} } }, waiting('ImagePullBackOff')))).toBe('ImagePullBackOff');
    expect(podStatus(cs(terminated(137, 'OOMKilled')))).toBe('OOMKilled');
    expect(podStatus(cs(terminated(3)))).toBe('ExitCode:3');
    expect(podStatus(cs(terminated(0, 'Completed'), { state: { running: {} } }))).toBe('Running');
    expect(podStatus({ status: { phase: 'Failed', reason: 'Evicted' } })).toBe('Evicted');
    expect(podStatus({})).toBe('Unknown');
    expect(
      podStatus({ status: { phase: 'Succeeded', containerStatuses: [terminated(0, 'Completed')] } }),
    ).toBe('Succeeded');
  });
});

describe('statusOf', () => {
  it('reads each built-in kind in its own words', () => {
    expect(statusOf('', 'Pod', { status: { phase: 'Running' } })).toBe('Running');
    expect(statusOf('', 'Node', cond('Ready', 'True'))).toBe('Ready');
    expect(statusOf('', 'Node', cond('Ready', 'False'))).toBe('NotReady');
    expect(statusOf('', 'Node', cond('Ready', 'Unknown'))).toBe('Unknown');
    expect(statusOf('', 'Node', { spec: { unschedulable: true }, ...cond('Ready', 'True') })).toBe(
      'Ready,SchedulingDisabled',
    );
    for (const k of ['PersistentVolumeClaim', 'PersistentVolume', 'Namespace'])
      expect(statusOf('', k, { status: { phase: 'Bound' } })).toBe('Bound');
    expect(statusOf('', 'Namespace', {})).toBeUndefined();
    for (const k of ['Deployment', 'ReplicaSet', 'StatefulSet']) {
      expect(statusOf('apps', k, { spec: { replicas: 3 }, status: { readyReplicas: 2 } })).toBe('2/3');
      expect(statusOf('apps', k, {})).toBe('0/1');
      expect(statusOf('apps', k, { spec: { replicas: 0 } })).toBe('0/0');
    }
    expect(statusOf('apps', 'DaemonSet', { status: { numberReady: 4, desiredNumberScheduled: 5 } })).toBe(
      '4/5',
    );
    expect(statusOf('apps', 'DaemonSet', {})).toBe('0/0');
    expect(statusOf('batch', 'Job', cond('Complete', 'True'))).toBe('Complete');
    expect(statusOf('batch', 'Job', cond('Failed', 'True'))).toBe('Failed');
    expect(statusOf('batch', 'Job', { spec: { suspend: true } })).toBe('Suspended');
    expect(statusOf('batch', 'Job', cond('Complete', 'False'))).toBe('Running');
    expect(statusOf('batch', 'CronJob', { spec: { suspend: true } })).toBe('Suspended');
    expect(statusOf('batch', 'CronJob', { status: { active: [{}, {}] } })).toBe('Active:2');
    expect(statusOf('batch', 'CronJob', {})).toBe('Active:0');
  });

  it('reads any other kind by its Ready, else Available, condition', () => {
    const cert = 'cert-manager.io';
    expect(statusOf(cert, 'Certificate', cond('Ready', 'True'))).toBe('Ready');
    expect(statusOf(cert, 'Certificate', cond('Ready', 'False'))).toBe('NotReady');
    expect(statusOf(cert, 'Certificate', cond('Ready', 'Unknown'))).toBe('Unknown');
    expect(statusOf('x.io', 'Thing', cond('Available', 'True'))).toBe('Available');
    expect(statusOf('x.io', 'Thing', cond('Available', 'False'))).toBe('Unavailable');
    expect(statusOf('x.io', 'Thing', cond('Available', 'Unknown'))).toBe('Unknown');
    expect(statusOf('x.io', 'Thing', cond('Progressing', 'True'))).toBeUndefined();
    expect(
      statusOf('x.io', 'Thing', {
        status: {
          conditions: [
            { type: 'Available', status: 'True' },
            { type: 'Ready', status: 'False' },
          ],
        },
      }),
    ).toBe('NotReady');
    // A Kind named like a built-in one, in another group, is read by its conditions.
    expect(statusOf('x.io', 'Pod', { status: { phase: 'Running' } })).toBeUndefined();
    expect(statusOf('', 'ConfigMap', { data: {} })).toBeUndefined();
    expect(statusOf('', 'Service', cond('Ready', 'True'))).toBe('Ready');
  });

  it('is nothing for what is not an object', () => {
    expect(statusOf('', 'Pod', null)).toBeUndefined();
    expect(statusOf('', 'Pod', [])).toBeUndefined();
    expect(statusOf('', 'Pod', 'x')).toBeUndefined();
  });
});
