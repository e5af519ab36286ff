/**
 * Worker nodes. worker-1 is healthy (and the only one labelled disktype=ssd), worker-2 is Ready
 * but under MemoryPressure, worker-3 is NotReady (CNI down). Scaled clusters add healthy
 * worker-4…N.
 */

import { managedEntry } from '../managed-fields';
import { hexId, imageDigestFor } from '../random';
import { DAY, MINUTE, SECOND } from '../time';
import type { KubeObject } from '../types';
import type { Gen, NodeInfo } from './context';

const KUBELET_VERSION = 'v1.31.4';

const IMAGES = [
  ['registry.k8s.io/kube-proxy', 'v1.31.4', 30_231_552],
  ['registry.k8s.io/coredns/coredns', 'v1.11.3', 18_562_039],
  ['registry.k8s.io/metrics-server/metrics-server', 'v0.7.2', 19_494_617],
  ['quay.io/prometheus/node-exporter', 'v1.8.2', 11_776_210],
  ['docker.io/library/nginx', '1.27.3', 72_950_530],
  ['registry.k8s.io/pause', '3.10', 320_368],
] as const;

function condition(
  type: string,
  status: string,
  reason: string,
  message: string,
  heartbeat: string,
  transition: string,
) {
  return { type, status, lastHeartbeatTime: heartbeat, lastTransitionTime: transition, reason, message };
}

export function buildNodes(gen: Gen, count: number): void {
  for (let i = 1; i <= count; i++) {
    const name = `worker-${i}`;
    const info: NodeInfo = {
      name,
      ip: `10.0.1.${10 + i}`,
      index: i,
      ready: i !== 3,
      memoryPressure: i === 2,
      labels: {
        'beta.kubernetes.io/arch': 'amd64',
        'beta.kubernetes.io/os': 'linux',
        'kubernetes.io/arch': 'amd64',
        'kubernetes.io/hostname': name,
        'kubernetes.io/os': 'linux',
        'node.kubernetes.io/instance-type': i === 1 ? 'm6i.xlarge' : 'm6i.large',
        'topology.kubernetes.io/region': 'eu-west-1',
        'topology.kubernetes.io/zone': `eu-west-1${'abc'[(i - 1) % 3]}`,
        ...(i === 1 ? { disktype: 'ssd' } : {}),
      },
    };
    gen.nodes.push(info);
    gen.add(nodeObject(gen, info));
  }
}

function nodeObject(gen: Gen, n: NodeInfo): KubeObject {
  const created = gen.ago(30 * DAY + n.index * MINUTE);
  const heartbeat = n.ready ? gen.ago(8 * SECOND + n.index * SECOND) : gen.ago(42 * MINUTE);
  const since = gen.ago(30 * DAY);
  const large = n.index === 1;
  const capacity = {
    cpu: large ? '4' : '2',
    'ephemeral-storage': '101430960Ki',
    'hugepages-1Gi': '0',
    'hugepages-2Mi': '0',
    memory: large ? '16073508Ki' : '8056484Ki',
    pods: '110',
  };
  const allocatable = {
    ...capacity,
    cpu: large ? '3920m' : '1930m',
    'ephemeral-storage': '93478772582',
    memory: large ? '15056676Ki' : '7039652Ki',
  };
  const memCondition = n.memoryPressure
    ? condition(
        'MemoryPressure',
        'True',
        'KubeletHasInsufficientMemory',
        'kubelet has insufficient memory available',
        heartbeat,
        gen.ago(47 * MINUTE),
      )
    : condition(
        'MemoryPressure',
        'False',
        'KubeletHasSufficientMemory',
        'kubelet has sufficient memory available',
        heartbeat,
        since,
      );
  const readyCondition = n.ready
    ? condition('Ready', 'True', 'KubeletReady', 'kubelet is posting ready status', heartbeat, since)
    : condition(
        'Ready',
        'False',
        'KubeletNotReady',
        'container runtime network not ready: NetworkReady=false reason:NetworkPluginNotReady message:Network plugin returns error: cni plugin not initialized',
        heartbeat,
        gen.ago(41 * MINUTE),
      );
  const taints = [
    ...(n.memoryPressure
      ? [{ key: 'node.kubernetes.io/memory-pressure', effect: 'NoSchedule', timeAdded: gen.ago(47 * MINUTE) }]
      : []),
    ...(!n.ready
      ? [
          { key: 'node.kubernetes.io/not-ready', effect: 'NoSchedule' },
          { key: 'node.kubernetes.io/not-ready', effect: 'NoExecute', timeAdded: gen.ago(41 * MINUTE) },
        ]
      : []),
  ];
  const metadata = {
    name: n.name,
    uid: gen.uid(`node/${n.name}`),
    resourceVersion: '',
    creationTimestamp: created,
    labels: n.labels,
    annotations: {
      'kubeadm.alpha.kubernetes.io/cri-socket': 'unix:///run/containerd/containerd.sock',
      'node.alpha.kubernetes.io/ttl': '0',
      'volumes.kubernetes.io/controller-managed-attach-detach': 'true',
    },
  };
  const spec = {
    podCIDR: `10.244.${n.index}.0/24`,
    podCIDRs: [`10.244.${n.index}.0/24`],
    providerID: `aws:///eu-west-1a/i-0${hexId(n.name, 16)}`,
    ...(taints.length > 0 ? { taints } : {}),
  };
  const status = {
    capacity,
    allocatable,
    conditions: [
      memCondition,
      condition(
        'DiskPressure',
        'False',
        'KubeletHasNoDiskPressure',
        'kubelet has no disk pressure',
        heartbeat,
        since,
      ),
      condition(
        'PIDPressure',
        'False',
        'KubeletHasSufficientPID',
        'kubelet has sufficient PID available',
        heartbeat,
        since,
      ),
      readyCondition,
    ],
    addresses: [
      { type: 'InternalIP', address: n.ip },
      { type: 'Hostname', address: n.name },
    ],
    daemonEndpoints: { kubeletEndpoint: { Port: 10250 } },
    nodeInfo: {
      machineID: hexId(`machine/${n.name}`, 32),
      systemUUID: hexId(`system/${n.name}`, 32).replace(
        /^(.{8})(.{4})(.{4})(.{4})(.{12})$/,
        '$1-$2-$3-$4-$5',
      ),
      bootID: hexId(`boot/${n.name}`, 32).replace(/^(.{8})(.{4})(.{4})(.{4})(.{12})$/, '$1-$2-$3-$4-$5'),
      kernelVersion: '6.1.0-28-cloud-amd64',
      osImage: 'Debian GNU/Linux 12 (bookworm)',
      containerRuntimeVersion: 'containerd://1.7.24',
      kubeletVersion: KUBELET_VERSION,
      kubeProxyVersion: KUBELET_VERSION,
      operatingSystem: 'linux',
      architecture: 'amd64',
    },
    images: IMAGES.map(([repo, tag, size]) => ({
      names: [`${repo}@${imageDigestFor(`${repo}:${tag}`)}`, `${repo}:${tag}`],
      sizeBytes: size,
    })),
  };
  return {
    apiVersion: 'v1',
    kind: 'Node',
    metadata: {
      ...metadata,
      managedFields: [
        managedEntry({
          manager: 'kubeadm',
          apiVersion: 'v1',
          time: created,
          owned: { metadata: { annotations: { 'kubeadm.alpha.kubernetes.io/cri-socket': '' } } },
          cacheKey: 'node|kubeadm',
        }),
        managedEntry({
          manager: 'kube-controller-manager',
          apiVersion: 'v1',
          time: created,
          owned: {
            metadata: { annotations: { 'node.alpha.kubernetes.io/ttl': '' } },
            spec: { podCIDR: '', podCIDRs: [] },
          },
          cacheKey: 'node|kcm',
        }),
        managedEntry({
          manager: 'kubelet',
          apiVersion: 'v1',
          time: created,
          owned: {
            metadata: {
              annotations: { 'volumes.kubernetes.io/controller-managed-attach-detach': '' },
              labels: n.labels,
            },
            spec: { providerID: '' },
          },
          cacheKey: `node|kubelet|${n.index === 1 ? 'ssd' : 'plain'}`,
        }),
        ...(taints.length > 0
          ? [
              managedEntry({
                manager: 'kube-controller-manager',
                apiVersion: 'v1',
                time: gen.ago(41 * MINUTE),
                owned: { spec: { taints: [] } },
                cacheKey: 'node|taints',
              }),
            ]
          : []),
        managedEntry({
          manager: 'kubelet',
          apiVersion: 'v1',
          time: heartbeat,
          owned: { status },
          subresource: 'status',
          cacheKey: 'node|status',
        }),
      ],
    },
    spec,
    status,
  };
}
