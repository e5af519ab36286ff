import type { GuidanceEntry } from '../types';
import { EVENTS, field, NODE, PODS, VOLUMES } from './actions';

/** Volume events on pods (kubelet, attach/detach controller) and PVCs (provisioners). */
export const STORAGE_EVENTS: GuidanceEntry[] = [
  {
    id: 'event-failedmount',
    subject: 'event-reason',
    match: 'FailedMount',
    title: 'Volume could not be mounted',
    severity: 'error',
    meaning:
      'The kubelet could not mount a volume, so the pod stays in ContainerCreating. "Unable to attach or mount volumes: unmounted volumes=[…] … timed out waiting for the condition" is the summary; the specific cause is usually in an earlier FailedMount message.',
    causes: [
      'A ConfigMap or Secret volume references an object or key that does not exist ("configmap \\"app-config\\" not found").',
      'The PVC is not bound or still attaching (see FailedAttachVolume, Multi-Attach).',
      'The CSI driver is not registered on the node ("driver name … not found in the list of registered CSI drivers") — its node DaemonSet pod is missing.',
      'NFS/SMB mount errors ("mount failed: exit status 32", permission denied, server unreachable).',
      'fsGroup ownership change on a volume with many files taking minutes.',
    ],
    checks: [
      { text: 'Read all FailedMount messages, oldest first.', action: EVENTS },
      {
        text: "Check each volume's source exists: `kubectl -n <namespace> get cm,secret,pvc`.",
        action: VOLUMES,
      },
      {
        text: 'Check the CSI node pods on the node: `kubectl get pods -A -o wide --field-selector spec.nodeName=<node>`.',
        action: NODE,
      },
      {
        text: 'Check fsGroup / fsGroupChangePolicy (OnRootMismatch avoids slow recursive chown).',
        action: field('spec.securityContext'),
      },
    ],
  },
  {
    id: 'event-failedattachvolume',
    subject: 'event-reason',
    match: 'FailedAttachVolume',
    title: 'Volume could not be attached to the node',
    severity: 'error',
    meaning:
      'The attach/detach controller could not attach the disk to the pod\'s node. The most common form is "Multi-Attach error … Volume is already exclusively attached to one node and can\'t be attached to another".',
    causes: [
      'A ReadWriteOnce volume is still attached to another node: the old pod is on a NotReady node or still terminating, or a RollingUpdate started the new pod before the old one let go (use strategy Recreate).',
      'The node reached its volume attachment limit.',
      'The disk is in a different zone than the node.',
      'Cloud API errors or throttling.',
    ],
    checks: [
      { text: 'Which node holds it: `kubectl get volumeattachment | grep <pv-name>`.', action: VOLUMES },
      { text: 'Find the other pod using the claim and its node.', action: PODS },
      {
        text: 'For Deployments with RWO volumes, use strategy type Recreate.',
        action: field('spec.strategy'),
      },
    ],
  },
  {
    id: 'event-faileddetachvolume',
    subject: 'event-reason',
    match: 'FailedDetachVolume',
    title: 'Volume could not be detached',
    severity: 'warning',
    meaning: 'Detaching a disk from a node failed; pods elsewhere that need it will hit Multi-Attach errors.',
    causes: [
      'The node is unreachable (detach waits up to 6 minutes for unmount confirmation).',
      'Cloud API errors.',
    ],
    checks: [{ text: "Check `kubectl get volumeattachment` and the old node's state.", action: VOLUMES }],
  },
  {
    id: 'event-failedmapvolume',
    subject: 'event-reason',
    match: 'FailedMapVolume',
    title: 'Block volume could not be mapped',
    severity: 'error',
    meaning: 'A volumeMode: Block volume could not be mapped into the pod.',
    causes: ['Driver without raw block support, or a device path problem on the node.'],
    checks: [{ text: 'Read the message and check the CSI driver on the node.', action: VOLUMES }],
  },
  {
    id: 'event-volumeresizefailed',
    subject: 'event-reason',
    match: 'VolumeResizeFailed',
    aliases: ['FileSystemResizeFailed'],
    title: 'Volume expansion failed',
    severity: 'warning',
    meaning:
      'Growing a PVC failed, either in the storage backend or when resizing the filesystem on the node.',
    causes: [
      'The StorageClass does not have allowVolumeExpansion: true, or the driver lacks expansion support.',
      'The cloud disk cannot grow again yet (e.g. AWS allows one modification per 6 hours).',
      'Filesystem resize needs the volume mounted, or (for some drivers) the pod restarted.',
    ],
    checks: [
      {
        text: 'Check the PVC conditions and events: `kubectl -n <namespace> describe pvc <name>`.',
        action: VOLUMES,
      },
      {
        text: 'Check the StorageClass: `kubectl get storageclass -o custom-columns=NAME:.metadata.name,EXPAND:.allowVolumeExpansion`.',
      },
    ],
  },
  {
    id: 'event-provisioningfailed',
    subject: 'event-reason',
    match: 'ProvisioningFailed',
    title: 'Volume provisioning failed',
    severity: 'error',
    meaning:
      'The provisioner could not create a volume for the claim; the PVC stays Pending and so do pods using it.',
    causes: [
      'StorageClass does not exist or names a provisioner that is not installed.',
      'Cloud quota, permissions, or invalid parameters (disk type, IOPS, size limits).',
      'The requested access mode is not supported (ReadWriteMany on block storage).',
    ],
    checks: [
      {
        text: "Read the message; check `kubectl get storageclass` and the PVC's storageClassName.",
        action: VOLUMES,
      },
      {
        text: 'Check the CSI controller pods: `kubectl -n kube-system get pods | grep csi`.',
        action: EVENTS,
      },
    ],
  },
  {
    id: 'event-failedbinding',
    subject: 'event-reason',
    match: 'FailedBinding',
    title: 'No volume to bind the claim to',
    severity: 'warning',
    meaning:
      'The PVC found no matching PersistentVolume ("no persistent volumes available for this claim and no storage class is set").',
    causes: [
      'No default StorageClass and the PVC names none (static provisioning expected).',
      'Existing PVs do not match size, access mode, storageClassName or selector.',
    ],
    checks: [
      {
        text: 'Check `kubectl get pv` against the claim and the default class: `kubectl get storageclass`.',
        action: VOLUMES,
      },
    ],
  },
  {
    id: 'event-waitforfirstconsumer',
    subject: 'event-reason',
    match: 'WaitForFirstConsumer',
    title: 'Claim waits for a pod',
    severity: 'info',
    meaning:
      'The StorageClass uses volumeBindingMode WaitForFirstConsumer: the volume is provisioned only when a pod using it is scheduled, so it lands in the right zone. Pending is expected until then.',
    causes: ['No pod uses the claim yet, or that pod cannot be scheduled.'],
    checks: [{ text: 'If a pod uses it, check why that pod is not scheduled.', action: PODS }],
  },
  {
    id: 'event-externalprovisioning',
    subject: 'event-reason',
    match: 'ExternalProvisioning',
    title: 'Waiting for the external provisioner',
    severity: 'info',
    meaning:
      'The claim waits for a CSI/external provisioner to create the volume. If it lasts more than a minute, the provisioner may not be running.',
    causes: ['Normal provisioning in progress.', 'Provisioner not installed or crashing.'],
    checks: [{ text: 'Check the provisioner pods named in the message.', action: EVENTS }],
  },
  {
    id: 'event-provisioningsucceeded',
    subject: 'event-reason',
    match: 'ProvisioningSucceeded',
    title: 'Volume provisioned',
    severity: 'info',
    meaning: 'A volume was created and bound to the claim.',
    causes: ['Normal dynamic provisioning.'],
    checks: [{ text: 'Pods waiting for it should now proceed to attach and mount.', action: PODS }],
  },
  {
    id: 'event-successfulattachvolume',
    subject: 'event-reason',
    match: 'SuccessfulAttachVolume',
    title: 'Volume attached',
    severity: 'info',
    meaning: 'The disk is attached to the node; the kubelet mounts it next.',
    causes: ['Normal volume attach.'],
    checks: [{ text: 'If the pod still waits, look for FailedMount after this.', action: EVENTS }],
  },
];
