import { describe, expect, it } from 'vitest';
import type { ListedObject } from './findings';
import { type FitPodSpec, formatAmount, nodeFitChecks, nodeFits, podRequests } from './node-fit';

const c = (cpu?: string, memory?: string, restartPolicy?: string) => ({
  resources: { requests: { ...(cpu ? { cpu } : {}), ...(memory ? { memory } : {}) } },
  ...(restartPolicy ? { restartPolicy } : {}),
});

function node(name: string, cpu: string, memory: string, spec: object = {}): ListedObject {
  return { metadata: { name }, spec, status: { allocatable: { cpu, memory } } } as ListedObject;
}
function pod(name: string, spec: FitPodSpec, phase = 'Running'): ListedObject {
  return { metadata: { name, namespace: 'x' }, spec, status: { phase } } as ListedObject;
}
const GI = 2 ** 30;

describe('podRequests, as the scheduler sums them', () => {
  it('sums app containers; a container without requests counts 0', () => {
    expect(podRequests({ containers: [c('250m', '1Gi'), c('500m'), {}] })).toEqual({ cpu: 0.75, memory: GI });
  });
  it('an init container larger than the apps sets the request; a smaller one does not', () => {
    expect(podRequests({ containers: [c('1', '1Gi')], initContainers: [c('2', '512Mi')] })).toEqual({
      cpu: 2,
      memory: GI,
    });
  });
  it('sidecars (init, restartPolicy Always) add to the apps and to the init containers after them', () => {
    const spec = {
      initContainers: [c('100m', '1Gi'), c('300m', '', 'Always'), c('200m', '2Gi')],
      containers: [c('1', '1Gi')],
    };
    // apps 1 + sidecar 0.3 = 1.3 cpu; the last init container: 2Gi + 0 sidecar memory = 2Gi.
    expect(podRequests(spec)).toEqual({ cpu: 1.3, memory: 2 * GI });
    const later = { initContainers: [c('', '', 'Always'), c('', '1Gi')], containers: [] };
    expect(podRequests({ ...later, initContainers: [c('', '1Gi', 'Always'), c('', '1Gi')] }).memory).toBe(
      2 * GI,
    );
  });
  it('overhead is added; nothing at all is zero', () => {
    expect(podRequests({ containers: [c('1', '1Gi')], overhead: { cpu: '250m', memory: '128Mi' } })).toEqual({
      cpu: 1.25,
      memory: GI + 128 * 2 ** 20,
    });
    expect(podRequests(undefined)).toEqual({ cpu: 0, memory: 0 });
    expect(podRequests({ overhead: { cpu: 'lots' } })).toEqual({ cpu: 0, memory: 0 });
  });
});

describe('nodeFits', () => {
  const want: FitPodSpec = { containers: [c('1', '4Gi')] };
  it('subtracts what running pods on the node request; finished and other nodes’ pods do not count', () => {
    const pods = [
      pod('a', { nodeName: 'n1', containers: [c('1', '3Gi')] }),
      pod('done', { nodeName: 'n1', containers: [c('4', '8Gi')] }, 'Succeeded'),
      pod('failed', { nodeName: 'n1', containers: [c('4', '8Gi')] }, 'Failed'),
      pod('pending', { containers: [c('4', '8Gi')] }, 'Pending'),
      pod('b', { nodeName: 'n2', containers: [c('2', '1Gi')] }),
    ];
    const fits = nodeFits(want, [node('n1', '2', '8Gi'), node('n2', '2', '8Gi')], pods);
    expect(fits[0]).toEqual({ node: 'n1', fits: true, free: { cpu: 1, memory: 5 * GI }, reasons: [] });
    expect(fits[1]).toEqual({
      node: 'n2',
      fits: false,
      free: { cpu: 0, memory: 7 * GI },
      reasons: ['too little cpu: 1000m requested, 0m free of 2000m allocatable'],
    });
  });
  it('exactly what is free fits', () => {
    expect(nodeFits(want, [node('n', '1', '4Gi')], [])[0]?.fits).toBe(true);
  });
  it('memory short, and free never shown below zero', () => {
    const pods = [pod('hog', { nodeName: 'n', containers: [c('', '10Gi')] })];
    expect(nodeFits(want, [node('n', '8', '8Gi')], pods)[0]?.reasons).toEqual([
      'too little memory: 4096Mi requested, 0Mi free of 8192Mi allocatable',
    ]);
  });
  it('a cordoned node and untolerated NoSchedule/NoExecute taints rule it out; PreferNoSchedule does not', () => {
    const n = node('n', '8', '8Gi', {
      unschedulable: true,
      taints: [
        { key: 'gpu', value: 'yes', effect: 'NoSchedule' },
        { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute' },
        { key: 'soft', effect: 'PreferNoSchedule' },
      ],
    });
    expect(nodeFits(want, [n], [])[0]?.reasons).toEqual([
      'cordoned (unschedulable)',
      'taint gpu=yes:NoSchedule not tolerated',
      'taint node.kubernetes.io/not-ready:NoExecute not tolerated',
    ]);
  });
  it('tolerations: Equal needs key and value, Exists the key, an empty Exists all; a set effect must match', () => {
    const n = node('n', '8', '8Gi', { taints: [{ key: 'gpu', value: 'yes', effect: 'NoSchedule' }] });
    const verdict = (tolerations: FitPodSpec['tolerations']) =>
      nodeFits({ ...want, tolerations }, [n], [])[0]?.fits;
    expect(verdict([{ key: 'gpu', value: 'yes' }])).toBe(true);
    expect(verdict([{ key: 'gpu', operator: 'Equal', value: 'yes', effect: 'NoSchedule' }])).toBe(true);
    expect(verdict([{ key: 'gpu', value: 'no' }])).toBe(false);
    expect(verdict([{ key: 'gpu' }])).toBe(false);
    expect(verdict([{ key: 'other', value: 'yes' }])).toBe(false);
    expect(verdict([{ key: 'gpu', operator: 'Exists' }])).toBe(true);
    expect(verdict([{ key: 'other', operator: 'Exists' }])).toBe(false);
    expect(verdict([{ operator: 'Exists' }])).toBe(true);
    expect(verdict([{ key: 'gpu', operator: 'Exists', effect: 'NoExecute' }])).toBe(false);
    const bare = node('b', '8', '8Gi', { taints: [{ key: 'k', effect: 'NoSchedule' }] });
    expect(nodeFits({ ...want, tolerations: [{ key: 'k' }] }, [bare], [])[0]?.fits).toBe(true);
    expect(nodeFits({ ...want, tolerations: [{ key: 'k', value: 'v' }] }, [bare], [])[0]?.fits).toBe(false);
  });
  it('objects missing their fields: no requests, no spec, no status, no tolerations', () => {
    const bare = { metadata: { name: 'bare' } } as ListedObject;
    const tainted = node('t', '1', '1Gi', { taints: [{ key: 'k', effect: 'NoSchedule' }] });
    const pods = [
      bare,
      { metadata: { name: 'p' }, spec: { nodeName: 't', containers: [{ resources: {} }] } },
    ];
    expect(nodeFits(undefined, [bare, tainted], pods as ListedObject[])).toEqual([
      { node: 'bare', fits: true, free: {}, reasons: [] },
      { node: 't', fits: false, free: { cpu: 1, memory: GI }, reasons: ['taint k:NoSchedule not tolerated'] },
    ]);
    expect(podRequests({ containers: [{ resources: {} }, {}] })).toEqual({ cpu: 0, memory: 0 });
    const noAllocatable = { metadata: { name: 'n' }, status: {} } as ListedObject;
    expect(nodeFits(undefined, [noAllocatable], [])[0]?.fits).toBe(true);
  });
  it('an allocatable that does not parse is not judged', () => {
    const n = { metadata: { name: 'n' }, status: { allocatable: { cpu: 'many' } } } as ListedObject;
    expect(nodeFits(want, [n], [])[0]).toEqual({ node: 'n', fits: true, free: {}, reasons: [] });
  });
});

describe('nodeFitChecks', () => {
  it('the nodes that fit first, each step naming its node', () => {
    const spec = { containers: [c('1500m', '2Gi')] };
    const fits = nodeFits(spec, [node('small', '1', '8Gi'), node('big', '4', '8Gi')], []);
    expect(nodeFitChecks(spec, fits)).toEqual([
      {
        text: 'Node big could take the pod (1500m cpu and 2048Mi memory requested).',
        ref: { resourceType: 'node', name: 'big' },
      },
      {
        text: 'Node small cannot take the pod: too little cpu: 1500m requested, 1000m free of 1000m allocatable.',
        ref: { resourceType: 'node', name: 'small' },
      },
    ]);
  });
  it('several reasons are joined', () => {
    const n = node('n', '1', '1Gi', { unschedulable: true });
    expect(nodeFitChecks(undefined, nodeFits({ containers: [c('2')] }, [n], []))[0]?.text).toBe(
      'Node n cannot take the pod: cordoned (unschedulable); too little cpu: 2000m requested, 1000m free of 1000m allocatable.',
    );
  });
  it('amounts: cpu in millicores, memory in MiB, rounded', () => {
    expect(formatAmount('cpu', 0.0004)).toBe('0m');
    expect(formatAmount('cpu', 1.5)).toBe('1500m');
    expect(formatAmount('memory', 1.6 * 2 ** 20)).toBe('2Mi');
  });
});
