import type { GuidanceCheck, GuidanceEntry } from '../types';
import { CONDITIONS, EVENTS, field, LOGS, LOGS_PREV, NODE, PROBES, RESOURCES, VOLUMES } from './actions';

// Shared by ErrImagePull, ImagePullBackOff and the matching event entries.
export const IMAGE_PULL_CAUSES: string[] = [
  'Typo in the image name, or a tag that was never pushed or has been deleted ("not found", "manifest unknown").',
  'Private registry without credentials: no imagePullSecrets, a secret in another namespace, or an expired token (ECR tokens last 12 h) — "unauthorized", "pull access denied", "403".',
  'Registry rate limiting, e.g. Docker Hub "429 Too Many Requests" / "toomanyrequests".',
  'The node cannot reach the registry: egress firewall, proxy, DNS, or private endpoint ("i/o timeout", "no such host", "x509: certificate signed by unknown authority").',
  'No image for the node\'s OS/architecture ("no matching manifest for linux/arm64").',
];

export const IMAGE_PULL_CHECKS: GuidanceCheck[] = [
  {
    text: "Read the exact pull error in the events — the registry's answer tells which cause it is.",
    action: EVENTS,
  },
  {
    text: 'Check the image reference (registry host, repository, tag or digest).',
    action: field('spec.containers[].image'),
  },
  {
    text: 'Check imagePullSecrets; the secret must be in the pod\'s namespace and of type kubernetes.io/dockerconfigjson: `kubectl -n <namespace> get secret <name> -o jsonpath="{.data.\\.dockerconfigjson}" | base64 -d`.',
    action: field('spec.imagePullSecrets'),
  },
  {
    text: 'Pull secrets can also come from the service account: `kubectl -n <namespace> get sa <name> -o yaml`.',
    action: field('spec.serviceAccountName'),
  },
  { text: 'Reproduce on the node: `crictl pull <image>` shows the raw registry error.', action: NODE },
];

export const CRASH_LOOP_CHECKS: GuidanceCheck[] = [
  {
    text: 'Read the logs of the crashed instance: `kubectl -n <namespace> logs <pod> -c <container> --previous`.',
    action: LOGS_PREV,
  },
  {
    text: 'Check lastState.terminated: exit code and reason (OOMKilled → memory limit; 137 without OOMKilled → often a liveness kill).',
    action: CONDITIONS,
  },
  {
    text: 'Look for `Unhealthy` liveness events; a probe that fires before the app is up kills it in a loop.',
    action: PROBES,
  },
  {
    text: 'Check the memory limit against real usage (`kubectl -n <namespace> top pod <pod> --containers`).',
    action: RESOURCES,
  },
  {
    text: 'Check command/args — the main process must stay in the foreground.',
    action: field('spec.containers[].command'),
  },
  {
    text: 'To poke around, start a copy with a shell instead of the crashing command: `kubectl -n <namespace> debug <pod> -it --copy-to=<pod>-debug --container=<container> -- sh`.',
  },
];

export const CONTAINER_WAITING: GuidanceEntry[] = [
  {
    id: 'waiting-containercreating',
    subject: 'container-waiting',
    match: 'ContainerCreating',
    title: 'Container is being created',
    severity: 'info',
    meaning:
      'The pod is on a node and the kubelet is preparing it: creating the sandbox and network, mounting volumes and pulling the image. A few seconds is normal; minutes means something is stuck.',
    causes: [
      'A volume cannot mount: missing ConfigMap/Secret, PVC still attaching, Multi-Attach error, CSI node plugin not running (FailedMount / FailedAttachVolume).',
      'The CNI plugin cannot set up networking or has no IPs left (FailedCreatePodSandBox).',
      'A large image is still being pulled (Pulling without Pulled).',
      'The container runtime on the node is slow or unhealthy.',
    ],
    checks: [
      {
        text: 'Read events: FailedMount, FailedAttachVolume, FailedCreatePodSandBox or a long-running Pulling.',
        action: EVENTS,
      },
      {
        text: 'Check that every referenced ConfigMap, Secret and PVC exists and PVCs are Bound.',
        action: VOLUMES,
      },
      {
        text: 'Check the node and its CNI/CSI pods: `kubectl -n kube-system get pods -o wide --field-selector spec.nodeName=<node>`.',
        action: NODE,
      },
    ],
  },
  {
    id: 'waiting-podinitializing',
    subject: 'container-waiting',
    match: 'PodInitializing',
    title: 'Waiting for init containers',
    severity: 'info',
    meaning: 'App containers wait until every init container has exited 0.',
    causes: [
      'An init container is still running (migrations, waiting for a dependency).',
      'An init container is crash-looping or cannot pull its image.',
    ],
    checks: [
      { text: 'Check init container states.', action: field('spec.initContainers') },
      {
        text: 'Read the init container logs: `kubectl -n <namespace> logs <pod> -c <container>`.',
        action: LOGS,
      },
    ],
  },
  {
    id: 'waiting-crashloopbackoff',
    subject: 'container-waiting',
    match: 'CrashLoopBackOff',
    title: 'Container keeps crashing',
    severity: 'error',
    meaning:
      'The container started and exited repeatedly; the kubelet now waits before each restart, doubling the delay from 10 s up to 5 min. The delay resets after the container runs 10 minutes without exiting. The cause is in the previous instance, not the waiting one.',
    causes: [
      'The application exits on startup: bad config, missing env var or secret value, cannot reach a database, failed migration.',
      'Killed for using more memory than its limit (lastState reason OOMKilled, exit 137).',
      'The liveness probe kills it before it is ready (too short initialDelaySeconds/failureThreshold; use a startupProbe for slow starts).',
      'The process exits 0 immediately: the command runs a one-shot script or daemonizes into the background.',
      'Wrong command/args, missing file, "permission denied" under runAsNonRoot/readOnlyRootFilesystem, or an image for another CPU architecture ("exec format error").',
    ],
    checks: CRASH_LOOP_CHECKS,
  },
  {
    id: 'waiting-imagepullbackoff',
    subject: 'container-waiting',
    match: 'ImagePullBackOff',
    title: 'Image pull failing, retrying with back-off',
    severity: 'error',
    meaning:
      'Pulling the image failed and the kubelet is waiting (up to 5 min) before trying again. It keeps retrying on its own, so fixing a secret or pushing the tag is enough — no need to recreate the pod.',
    causes: IMAGE_PULL_CAUSES,
    checks: IMAGE_PULL_CHECKS,
  },
  {
    id: 'waiting-errimagepull',
    subject: 'container-waiting',
    match: 'ErrImagePull',
    title: 'Image pull failed',
    severity: 'error',
    meaning:
      'The latest attempt to pull the image failed. After repeated failures the state turns into ImagePullBackOff.',
    causes: IMAGE_PULL_CAUSES,
    checks: IMAGE_PULL_CHECKS,
  },
  {
    id: 'waiting-invalidimagename',
    subject: 'container-waiting',
    match: 'InvalidImageName',
    title: 'Image reference cannot be parsed',
    severity: 'error',
    meaning:
      'The image string is not a valid reference, so nothing is pulled and retries cannot help; the pod spec must change.',
    causes: [
      'Upper-case letters in the repository path (only the tag may have them).',
      'A scheme such as "https://" in front, spaces, or two tags ("app:1.0:latest").',
      'An empty tag ("app:") or a malformed digest ("@sha256:" with the wrong length).',
      'An unexpanded template variable, e.g. "registry/$IMAGE" or "{{ .Values.image }}".',
    ],
    checks: [
      { text: 'Read the image string exactly as stored.', action: field('spec.containers[].image') },
      { text: 'The InspectFailed event quotes the parse error.', action: EVENTS },
    ],
  },
  {
    id: 'waiting-createcontainerconfigerror',
    subject: 'container-waiting',
    match: 'CreateContainerConfigError',
    title: 'Container config cannot be built',
    severity: 'error',
    meaning:
      'The kubelet could not assemble the container configuration, usually because something the spec references does not exist. It retries on every sync, so creating the missing object is enough.',
    causes: [
      'A referenced Secret or ConfigMap does not exist in this namespace (`secret "db-creds" not found`).',
      "A referenced key is missing (`couldn't find key PASSWORD in Secret app/db-creds`).",
      'runAsNonRoot is set but the image runs as root, or as a non-numeric user that cannot be verified ("image has non-numeric user").',
      'A subPath or volume reference that does not resolve.',
    ],
    checks: [
      { text: 'The Failed event message names the missing object or key.', action: EVENTS },
      {
        text: 'Check env/envFrom references exist: `kubectl -n <namespace> get secret,configmap`.',
        action: field('spec.containers[].env'),
      },
      {
        text: 'For runAsNonRoot errors, set runAsUser to a numeric UID the image supports.',
        action: field('spec.containers[].securityContext'),
      },
    ],
  },
  {
    id: 'waiting-createcontainererror',
    subject: 'container-waiting',
    match: 'CreateContainerError',
    title: 'Runtime failed to create the container',
    severity: 'error',
    meaning: 'The config was valid but the container runtime refused to create the container.',
    causes: [
      'No command: neither the image (no ENTRYPOINT/CMD) nor the pod specifies one ("no command specified").',
      'A mount cannot be set up: subPath pointing at a missing path, hostPath type mismatch.',
      'A stale container with the same name is left in the runtime ("name is already in use").',
    ],
    checks: [
      { text: 'Read the error in the Failed event.', action: EVENTS },
      { text: 'Check command/args.', action: field('spec.containers[].command') },
      { text: 'Check volume mounts and subPaths.', action: VOLUMES },
      { text: 'On the node: `journalctl -u containerd --since "-15m"`.', action: NODE },
    ],
  },
  {
    id: 'waiting-runcontainererror',
    subject: 'container-waiting',
    match: 'RunContainerError',
    title: 'Container could not be started',
    severity: 'error',
    meaning: 'The container was created but the runtime failed to start its process.',
    causes: [
      'The entrypoint does not exist in the image ("executable file not found in $PATH").',
      'The entrypoint is not executable ("permission denied") or is a script with Windows line endings.',
      'The image is for another CPU architecture ("exec format error").',
      'A seccomp/AppArmor profile, device or cgroup setting the node does not support.',
    ],
    checks: [
      { text: 'Read the runtime error in the events.', action: EVENTS },
      {
        text: 'Check command/args against what exists in the image.',
        action: field('spec.containers[].command'),
      },
      {
        text: 'Compare the image architectures with the node\'s (`kubectl get node <node> -o jsonpath="{.status.nodeInfo.architecture}"`).',
        action: NODE,
      },
      { text: 'Check the security context.', action: field('spec.containers[].securityContext') },
    ],
  },
  {
    id: 'waiting-errimageneverpull',
    subject: 'container-waiting',
    match: 'ErrImageNeverPull',
    title: 'Image missing and pulling is disabled',
    severity: 'error',
    meaning: 'imagePullPolicy is Never and the image is not on this node, so the kubelet will not fetch it.',
    causes: [
      'The image was loaded into a different node (kind/minikube: `kind load docker-image`, `minikube image load`).',
      'The tag on the node differs from the one in the spec.',
      'The image was garbage-collected from the node under disk pressure.',
    ],
    checks: [
      {
        text: 'Check imagePullPolicy — use IfNotPresent if the image is in a registry.',
        action: field('spec.containers[].imagePullPolicy'),
      },
      { text: 'List images on the node: `crictl images | grep <name>`.', action: NODE },
    ],
  },
  {
    id: 'waiting-imageinspecterror',
    subject: 'container-waiting',
    match: 'ImageInspectError',
    title: 'Image on the node cannot be inspected',
    severity: 'error',
    meaning: 'The runtime could not read the image metadata on the node.',
    causes: [
      "A corrupt or half-pulled image in the node's image store.",
      "The runtime's storage is damaged or full.",
    ],
    checks: [
      { text: 'Read the event message.', action: EVENTS },
      { text: 'On the node remove the image and pull again: `crictl rmi <image>`.', action: NODE },
    ],
  },
  {
    id: 'waiting-registryunavailable',
    subject: 'container-waiting',
    match: 'RegistryUnavailable',
    title: 'Registry unreachable',
    severity: 'error',
    meaning: 'The kubelet could not connect to the image registry.',
    causes: ['Registry outage.', 'Network policy, proxy, DNS or firewall between the node and the registry.'],
    checks: [
      { text: 'Read the event message.', action: EVENTS },
      { text: 'From the node: `crictl pull <image>` and `curl -v https://<registry>/v2/`.', action: NODE },
    ],
  },
];
