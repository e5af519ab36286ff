import type { GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, NODE, PODS } from './actions';

const KUBELET_LOGS = 'On the node: `journalctl -u kubelet --since "-30m"`.';

function cleared(match: string, title: string, of: string): GuidanceEntry {
  return {
    id: `event-${match.toLowerCase()}`,
    subject: 'event-reason',
    match,
    title,
    severity: 'info',
    meaning: `The kubelet reports the node is no longer under ${of} pressure.`,
    causes: ['Usage dropped (evictions, cleanup) or the node just started.'],
    checks: [{ text: 'If it flaps, look at the pressure events before it.', action: EVENTS }],
  };
}

/** Events recorded on Node objects (kubelet, node controller, node-problem-detector). */
export const NODE_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-nodenotready',
    subject: 'event-reason',
    match: 'NodeNotReady',
    title: 'Node became NotReady',
    severity: 'error',
    meaning:
      'On a node: its Ready condition turned False/Unknown. On a pod: the node controller marked it not ready because its node stopped being Ready ("Node is not ready"). Pods are deleted after their not-ready/unreachable toleration (300 s by default).',
    causes: [
      'The kubelet stopped reporting (machine down, network partition, kubelet crash).',
      'The runtime or CNI on the node is broken (Ready=False with a message).',
    ],
    checks: [
      { text: "Read the node's Ready condition reason and message.", action: CONDITIONS },
      { text: 'Open the node.', action: NODE },
      { text: KUBELET_LOGS },
    ],
  },
  {
    id: 'event-nodeready',
    subject: 'event-reason',
    match: 'NodeReady',
    title: 'Node became Ready',
    severity: 'info',
    meaning: 'The kubelet reports the node healthy and able to run pods.',
    causes: ['Node start-up, or recovery after NotReady.'],
    checks: [
      { text: 'Frequent NotReady/Ready flips suggest an overloaded node or flaky network.', action: EVENTS },
    ],
  },
  {
    id: 'event-nodenotschedulable',
    subject: 'event-reason',
    match: 'NodeNotSchedulable',
    title: 'Node cordoned',
    severity: 'info',
    meaning:
      'spec.unschedulable was set (`kubectl cordon` / drain); running pods stay, new ones go elsewhere.',
    causes: ['Maintenance, a drain in progress, an autoscaler scale-down, or an upgrade.'],
    checks: [
      { text: 'Uncordon when done: `kubectl uncordon <node>`.', action: field('spec.unschedulable') },
      { text: 'See what still runs there.', action: PODS },
    ],
  },
  {
    id: 'event-nodeschedulable',
    subject: 'event-reason',
    match: 'NodeSchedulable',
    title: 'Node uncordoned',
    severity: 'info',
    meaning: 'The node accepts new pods again.',
    causes: ['`kubectl uncordon` or the end of a maintenance.'],
    checks: [{ text: 'Nothing to do; pods are not moved back automatically.', action: PODS }],
  },
  {
    id: 'event-rebooted',
    subject: 'event-reason',
    match: 'Rebooted',
    title: 'Node rebooted',
    severity: 'warning',
    meaning:
      'The kubelet saw a new boot ID ("Node … has been rebooted, boot id: …"); every container on it was restarted.',
    causes: [
      'Planned maintenance or an automatic OS update (unattended-upgrades, kured).',
      'A kernel panic, hardware fault or hypervisor event.',
      'Spot/preemptible instance interruption with reuse.',
    ],
    checks: [
      {
        text: "On the node: `journalctl --list-boots` and `journalctl -b -1 -e` for the previous boot's last messages.",
      },
      { text: 'Check pods that restarted there.', action: PODS },
    ],
  },
  {
    id: 'event-shutdown',
    subject: 'event-reason',
    match: 'Shutdown',
    title: 'Node shutting down',
    severity: 'warning',
    meaning:
      'The kubelet detected a system shutdown and is terminating pods gracefully (graceful node shutdown).',
    causes: ['Planned shutdown, spot interruption, or an autoscaler removing the node.'],
    checks: [{ text: 'Check that the pods were rescheduled.', action: PODS }],
  },
  {
    id: 'event-starting',
    subject: 'event-reason',
    match: 'Starting',
    title: 'Kubelet starting',
    severity: 'info',
    meaning: 'The kubelet (or kube-proxy) process started.',
    causes: ['Node boot, kubelet upgrade or config change — or a crash loop of the kubelet if it repeats.'],
    checks: [
      {
        text: `If this repeats every few minutes the kubelet is restarting. ${KUBELET_LOGS}`,
        action: EVENTS,
      },
    ],
  },
  {
    id: 'event-invaliddiskcapacity',
    subject: 'event-reason',
    match: 'InvalidDiskCapacity',
    title: 'Kubelet saw zero image-filesystem capacity',
    severity: 'warning',
    meaning:
      'The kubelet read "invalid capacity 0 on image filesystem", usually because the container runtime had not reported its filesystem stats yet.',
    causes: [
      'Transient at kubelet start-up while the runtime comes up — harmless if it does not repeat.',
      "The runtime's image store path (containerd root/snapshotter) is misconfigured or on an unexpected mount.",
    ],
    checks: [
      {
        text: 'If it persists after start-up: `crictl imagefsinfo` on the node and check the runtime config.',
      },
      { text: 'Check DiskPressure and image GC events.', action: EVENTS },
    ],
  },
  {
    id: 'event-nodehasinsufficientmemory',
    subject: 'event-reason',
    match: 'NodeHasInsufficientMemory',
    title: 'Node under memory pressure',
    severity: 'warning',
    meaning:
      'MemoryPressure turned True: available memory is below the eviction threshold. Evictions follow.',
    causes: [
      'Pods using more memory than they request.',
      'Pods without limits.',
      'System daemons not reserved for.',
    ],
    checks: [
      {
        text: 'Compare allocatable with requests and actual usage (`kubectl top node <node>`).',
        action: ALLOCATABLE,
      },
      { text: 'Find the biggest pods on the node.', action: PODS },
    ],
  },
  cleared('NodeHasSufficientMemory', 'Memory pressure cleared', 'memory'),
  {
    id: 'event-nodehasdiskpressure',
    subject: 'event-reason',
    match: 'NodeHasDiskPressure',
    title: 'Node under disk pressure',
    severity: 'warning',
    meaning:
      'DiskPressure turned True: free disk or inodes are below the eviction threshold. Image GC and evictions follow.',
    causes: ['emptyDir or container-filesystem writes, big logs, too many images.'],
    checks: [
      { text: 'On the node: `df -h`, `df -i`, `crictl images`.' },
      { text: 'Check the node conditions.', action: NODE },
    ],
  },
  cleared('NodeHasNoDiskPressure', 'Disk pressure cleared', 'disk'),
  {
    id: 'event-nodehasinsufficientpid',
    subject: 'event-reason',
    match: 'NodeHasInsufficientPID',
    title: 'Node under PID pressure',
    severity: 'warning',
    meaning: 'PIDPressure turned True: too few process IDs left.',
    causes: ['A pod leaking processes or zombies, or very thread-heavy workloads.'],
    checks: [
      {
        text: 'On the node: `ps -eLf | wc -l`; find zombies with `ps -e -o stat,comm | grep ^Z`.',
        action: PODS,
      },
    ],
  },
  cleared('NodeHasSufficientPID', 'PID pressure cleared', 'PID'),
  {
    id: 'event-evictionthresholdmet',
    subject: 'event-reason',
    match: 'EvictionThresholdMet',
    title: 'Eviction threshold reached',
    severity: 'warning',
    meaning:
      'The kubelet is reclaiming a resource ("Attempting to reclaim memory" / "ephemeral-storage" / "nodefs"); Evicted events on pods follow.',
    causes: ['Memory or disk usage on the node crossed the eviction threshold.'],
    checks: [
      { text: 'See which pods were evicted.', action: EVENTS },
      { text: "Check the node's requests against allocatable.", action: ALLOCATABLE },
    ],
  },
  {
    id: 'event-freediskspacefailed',
    subject: 'event-reason',
    match: 'FreeDiskSpaceFailed',
    aliases: ['ImageGCFailed'],
    title: 'Image garbage collection could not free enough space',
    severity: 'warning',
    meaning:
      'The kubelet tried to delete unused images but could not reach its target ("Attempted to free 4GB, but only found 0 bytes eligible to free"). Evictions come next.',
    causes: [
      'The disk is filled by something other than unused images: images in use, emptyDirs, logs, non-Kubernetes files.',
      'The image filesystem is too small for the set of images the node runs.',
    ],
    checks: [
      { text: 'On the node: `du -xh --max-depth=2 /var/lib | sort -h | tail` and `crictl images`.' },
      { text: 'Check DiskPressure.', action: CONDITIONS },
    ],
  },
  {
    id: 'event-containergcfailed',
    subject: 'event-reason',
    match: 'ContainerGCFailed',
    title: 'Container garbage collection failed',
    severity: 'warning',
    meaning:
      'The kubelet could not list or remove dead containers, usually because the runtime is not responding.',
    causes: [
      'containerd/CRI-O hung or overloaded ("rpc error: code = DeadlineExceeded").',
      'Runtime socket missing after a crash.',
    ],
    checks: [{ text: 'On the node: `systemctl status containerd`, `crictl ps -a | wc -l`.', action: NODE }],
  },
  {
    id: 'event-kerneloops',
    subject: 'event-reason',
    match: 'KernelOops',
    aliases: ['TaskHung', 'KernelDeadlock'],
    title: 'Kernel problem on the node',
    severity: 'warning',
    meaning:
      'node-problem-detector saw a kernel oops, a hung task ("task … blocked for more than 120 seconds") or a deadlock.',
    causes: ['Storage stalls (NFS, slow EBS), driver bugs, kernel bugs.'],
    checks: [
      { text: 'On the node: `dmesg -T | tail -100`.' },
      {
        text: 'Consider draining and replacing the node if it repeats: `kubectl drain <node> --ignore-daemonsets`.',
        action: NODE,
      },
    ],
  },
  {
    id: 'event-filesystemisreadonly',
    subject: 'event-reason',
    match: 'FilesystemIsReadOnly',
    aliases: ['ReadonlyFilesystem'],
    title: 'Node filesystem remounted read-only',
    severity: 'error',
    meaning: 'The kernel remounted a filesystem read-only after I/O errors; pods writing to it fail.',
    causes: ['Disk or volume errors, filesystem corruption.'],
    checks: [
      {
        text: 'Drain and replace or repair the node: `dmesg -T | grep -i -e error -e ext4 -e xfs`.',
        action: NODE,
      },
    ],
  },
];
