import type { GuidanceEntry } from '../types';
import { ALLOCATABLE, CONDITIONS, EVENTS, field, LOGS, NODE, PODS, PROBES, RESOURCES } from './actions';
import { EVICTION_CAUSES, EVICTION_CHECKS } from './container-terminated';

const CNI_PODS = '`kubectl get pods -A -o wide --field-selector spec.nodeName=<node>`';

/** Kubelet runtime events on pods: probes, sandboxes, stopping, admission, eviction. */
export const POD_RUNTIME_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-unhealthy',
    subject: 'event-reason',
    match: 'Unhealthy',
    title: 'Probe failed',
    severity: 'warning',
    meaning:
      'A liveness, readiness or startup probe failed. Readiness failures remove the pod from Service endpoints; liveness/startup failures past failureThreshold restart the container.',
    causes: [
      '"connection refused": nothing listens on the probed port yet, the port is wrong, or the app binds 127.0.0.1 instead of 0.0.0.0.',
      '"context deadline exceeded" / "Client.Timeout exceeded": the endpoint is slower than timeoutSeconds (default 1 s), often under load or GC pauses.',
      '"HTTP probe failed with statuscode: 500/503": the health endpoint reports unhealthy, often because it checks a dependency (liveness should not).',
      'Slow startup killed by liveness: add a startupProbe or raise initialDelaySeconds.',
    ],
    checks: [
      { text: 'Check the probe port, path, timeouts and thresholds.', action: PROBES },
      { text: 'Check the declared container ports.', action: field('spec.containers[].ports') },
      {
        text: 'Test from inside: `kubectl -n <namespace> exec <pod> -c <container> -- wget -qO- http://localhost:<port>/<path>`.',
      },
      { text: 'Read the logs around the failures.', action: LOGS },
    ],
  },
  {
    id: 'event-probewarning',
    subject: 'event-reason',
    match: 'ProbeWarning',
    title: 'Probe succeeded with a warning',
    severity: 'info',
    meaning:
      'An HTTP probe passed but something was off, typically a redirect ("Probe terminated redirects") or a truncated response body.',
    causes: ['The health path redirects (to HTTPS, a login page, or adds a trailing slash).'],
    checks: [{ text: 'Point the probe at a path that answers 200 directly.', action: PROBES }],
  },
  {
    id: 'event-failedcreatepodsandbox',
    subject: 'event-reason',
    match: 'FailedCreatePodSandBox',
    title: 'Pod sandbox could not be created',
    severity: 'error',
    meaning:
      'The runtime could not create the pod sandbox, almost always because the CNI plugin failed to attach networking. The pod stays ContainerCreating and the kubelet retries.',
    causes: [
      'IP address exhaustion: "no IP addresses available in range set", or the cloud CNI out of ENI/secondary IPs.',
      'The CNI agent on the node is not running or cannot reach its datastore ("plugin type=calico failed (add)", "connection refused").',
      'The pause image cannot be pulled (air-gapped clusters).',
    ],
    checks: [
      { text: 'Read the full message: it names the CNI plugin and the error.', action: EVENTS },
      { text: `Check the CNI pods on the node: ${CNI_PODS}.`, action: PODS },
      { text: "Check the node's pod CIDR and max pods.", action: NODE },
    ],
  },
  {
    id: 'event-sandboxchanged',
    subject: 'event-reason',
    match: 'SandboxChanged',
    title: 'Pod sandbox re-created',
    severity: 'warning',
    meaning:
      'The kubelet found the sandbox dead or changed and re-created it; all containers of the pod restart.',
    causes: [
      'The node or container runtime restarted.',
      'The CNI plugin was restarted or reconfigured.',
      'The pause container was OOM-killed on a node under memory pressure.',
    ],
    checks: [
      { text: 'Check the node for Rebooted, Starting or pressure events.', action: NODE },
      { text: 'If it repeats, look at the CNI and runtime logs on the node.', action: EVENTS },
    ],
  },
  {
    id: 'event-networknotready',
    subject: 'event-reason',
    match: 'NetworkNotReady',
    title: 'Node network not ready',
    severity: 'warning',
    meaning:
      'The kubelet will not start pods that need pod networking because the runtime reports NetworkReady=false ("cni plugin not initialized").',
    causes: [
      'The CNI DaemonSet pod on this node is not running yet (new node) or is crashing.',
      'No CNI config in /etc/cni/net.d on the node.',
    ],
    checks: [
      { text: `Check the CNI pods on the node: ${CNI_PODS}.`, action: PODS },
      { text: "Check the node's Ready condition message.", action: NODE },
    ],
  },
  {
    id: 'event-failedsync',
    subject: 'event-reason',
    match: 'FailedSync',
    title: 'Kubelet could not sync the pod',
    severity: 'warning',
    meaning: 'A generic kubelet error while reconciling the pod; the message has the specific failure.',
    causes: [
      'Runtime errors, volume errors, or the pod being deleted mid-sync ("error determining status").',
    ],
    checks: [
      { text: 'Read the message and the events around it.', action: EVENTS },
      { text: 'Check the node health.', action: NODE },
    ],
  },
  {
    id: 'event-failedkillpod',
    subject: 'event-reason',
    match: 'FailedKillPod',
    title: 'Kubelet could not stop the pod',
    severity: 'warning',
    meaning:
      'Stopping the pod failed ("error killing pod: failed to KillPodSandbox"); the pod may hang in Terminating.',
    causes: [
      'The CNI plugin fails to tear down networking (CNI agent missing or broken on the node).',
      'The container runtime is hung.',
    ],
    checks: [
      { text: `Check the CNI pods and runtime on the node: ${CNI_PODS}.`, action: NODE },
      {
        text: 'If it is stuck Terminating, also check metadata.finalizers; force-delete only as a last resort.',
        action: EVENTS,
      },
    ],
  },
  {
    id: 'event-exceededgraceperiod',
    subject: 'event-reason',
    match: 'ExceededGracePeriod',
    title: 'Container ignored SIGTERM',
    severity: 'warning',
    meaning:
      'The container did not exit within terminationGracePeriodSeconds after SIGTERM and was killed with SIGKILL (exit 137).',
    causes: [
      'PID 1 is a shell (`sh -c …`) that does not forward signals; use `exec` or an init like tini.',
      'The app does not handle SIGTERM, or draining takes longer than the grace period.',
      'A preStop hook uses most of the grace period.',
    ],
    checks: [
      { text: 'Check the grace period.', action: field('spec.terminationGracePeriodSeconds') },
      { text: 'Check the command: is the app PID 1?', action: field('spec.containers[].command') },
      { text: 'Check preStop hooks.', action: field('spec.containers[].lifecycle') },
    ],
  },
  {
    id: 'event-failedpoststarthook',
    subject: 'event-reason',
    match: 'FailedPostStartHook',
    title: 'postStart hook failed',
    severity: 'error',
    meaning: 'The postStart hook failed, so the kubelet killed the container; it restarts per restartPolicy.',
    causes: [
      'The hook command is missing in the image or fails.',
      'The HTTP hook target is not up yet (postStart runs concurrently with the entrypoint).',
    ],
    checks: [{ text: 'Check the lifecycle hooks.', action: field('spec.containers[].lifecycle') }],
  },
  {
    id: 'event-failedprestophook',
    subject: 'event-reason',
    match: 'FailedPreStopHook',
    title: 'preStop hook failed',
    severity: 'warning',
    meaning: 'The preStop hook failed or timed out; termination continues with SIGTERM anyway.',
    causes: [
      'The hook command is missing (e.g. `sleep` in a distroless image) or fails.',
      'It runs longer than the grace period.',
    ],
    checks: [
      { text: 'Check the lifecycle hooks.', action: field('spec.containers[].lifecycle') },
      { text: 'Check the grace period.', action: field('spec.terminationGracePeriodSeconds') },
    ],
  },
  {
    id: 'event-evicted',
    subject: 'event-reason',
    match: 'Evicted',
    title: 'Pod evicted',
    severity: 'error',
    meaning:
      'The kubelet evicted the pod to reclaim node resources, or the pod exceeded its ephemeral-storage limit. The message names the resource and the usage.',
    causes: EVICTION_CAUSES,
    checks: EVICTION_CHECKS,
  },
  {
    id: 'event-outofcpu',
    subject: 'event-reason',
    match: 'OutOfcpu',
    aliases: ['OutOfmemory', 'OutOfpods', 'OutOfephemeral-storage', 'OutOfnvidia.com/gpu'],
    title: 'Rejected by the kubelet: not enough resources',
    severity: 'error',
    meaning:
      'The scheduler placed the pod but the kubelet refused it at admission because the node did not have the resource left ("Node didn\'t have enough resource"). The pod is Failed; its controller creates another.',
    causes: [
      'A race: static pods or pods the scheduler did not yet see used the space.',
      "Another scheduler or spec.nodeName set directly, bypassing the default scheduler's accounting.",
      'Extended resources (GPUs) reported differently by the device plugin after a restart.',
    ],
    checks: [
      { text: "Compare the node's allocatable with the pods on it.", action: ALLOCATABLE },
      { text: 'Was spec.nodeName set directly?', action: field('spec.nodeName') },
      { text: 'Delete the Failed pod objects once a replacement runs.', action: PODS },
    ],
  },
  {
    id: 'event-unexpectedadmissionerror',
    subject: 'event-reason',
    match: 'UnexpectedAdmissionError',
    title: 'Kubelet admission failed unexpectedly',
    severity: 'error',
    meaning:
      'The kubelet rejected the pod with an internal admission error, typically from device allocation.',
    causes: [
      'A device plugin (GPU, SR-IOV) could not allocate: "Allocate failed due to requested number of devices unavailable".',
      'The device plugin restarted and the kubelet has stale device state.',
    ],
    checks: [
      { text: 'Read the message.', action: EVENTS },
      { text: 'Check the device plugin pods on the node.', action: PODS },
      { text: 'Check the extended resource requests.', action: RESOURCES },
    ],
  },
  {
    id: 'event-nodeaffinity',
    subject: 'event-reason',
    match: 'NodeAffinity',
    title: 'Rejected by the kubelet: node affinity',
    severity: 'error',
    meaning:
      "The kubelet re-checked the pod's nodeSelector/affinity at admission and the node no longer matches.",
    causes: [
      'Node labels changed between scheduling and admission (or after a kubelet restart).',
      'spec.nodeName set directly to a non-matching node.',
    ],
    checks: [
      { text: "Compare node labels with the pod's selector.", action: field('spec.nodeSelector') },
      { text: 'Open the node.', action: NODE },
    ],
  },
  {
    id: 'event-taintmanagereviction',
    subject: 'event-reason',
    match: 'TaintManagerEviction',
    title: 'Deleted because of a NoExecute taint',
    severity: 'warning',
    meaning:
      'The node got a NoExecute taint the pod does not tolerate (or its tolerationSeconds ran out), so the pod was deleted — "Marking for deletion Pod …".',
    causes: [
      'The node became unreachable or not-ready for longer than tolerationSeconds (default 300 s).',
      'An operator or tool added a NoExecute taint.',
    ],
    checks: [
      { text: 'Check the node taints and conditions.', action: NODE },
      { text: 'Check tolerations (and tolerationSeconds).', action: field('spec.tolerations') },
    ],
  },
  {
    id: 'event-oomkilling',
    subject: 'event-reason',
    match: 'OOMKilling',
    title: 'Kernel OOM killer fired',
    severity: 'warning',
    meaning:
      'node-problem-detector saw the kernel kill a process ("Memory cgroup out of memory: Killed process 1234 (java)"). A memory cgroup OOM means a container hit its limit; a plain "Out of memory" means the node ran out.',
    causes: [
      'A container at its memory limit.',
      'The node exhausted memory (pods without limits, overcommitted limits).',
    ],
    checks: [
      { text: 'Find the pod running the named process and check its limits.', action: PODS },
      { text: "Check the node's memory commitments.", action: ALLOCATABLE },
      { text: 'Look for OOMKilled container states.', action: CONDITIONS },
    ],
  },
  {
    id: 'event-systemoom',
    subject: 'event-reason',
    match: 'SystemOOM',
    title: 'Node-level OOM',
    severity: 'warning',
    meaning: 'The kubelet saw an OOM kill on the node ("System OOM encountered, victim process: …").',
    causes: ['A container hit its memory limit, or the node ran out of memory.'],
    checks: [
      { text: 'Find which pod ran the victim process and check its memory limit.', action: PODS },
      { text: "Check the node's memory commitments.", action: ALLOCATABLE },
    ],
  },
];
