import type { GuidanceEntry } from '../types';
import { EVENTS, PODS } from './actions';

/**
 * Status explanations of a PersistentVolumeClaim and an Ingress. The matches that are not API
 * spellings (StorageClassNotFound, NoStorageClass, NoAddress, ServiceNotFound) name what the
 * explainers in explain-pvc.ts and explain-ingress.ts conclude from spec and status together;
 * a claim waiting for its first consumer or failing to provision is explained by the event entries.
 */
export const PVC_STATUS: GuidanceEntry[] = [
  {
    id: 'pvc-status-pending',
    subject: 'pvc-status',
    match: 'Pending',
    title: 'Claim is Pending',
    severity: 'warning',
    meaning:
      'No PersistentVolume is bound to the claim yet. Pods that use it are not scheduled (or, with a volume bound elsewhere, wait in ContainerCreating) until it is Bound.',
    causes: [
      'The claim names a StorageClass that does not exist, so no provisioner acts on it.',
      'The claim names no StorageClass and there is no default one, so only a matching pre-created PersistentVolume could bind it.',
      'The StorageClass binds WaitForFirstConsumer: the volume is made only once a pod using the claim is scheduled.',
      'The provisioner failed (ProvisioningFailed events) or is not running (ExternalProvisioning for minutes).',
    ],
    checks: [
      { text: 'Read the claim’s events: `kubectl -n <namespace> describe pvc <name>`.', action: EVENTS },
      { text: 'List the classes and which one is the default: `kubectl get storageclass`.' },
      { text: 'Look at the pods that use the claim and whether they are scheduled.', action: PODS },
    ],
  },
  {
    id: 'pvc-status-lost',
    subject: 'pvc-status',
    match: 'Lost',
    title: 'Claim lost its volume',
    severity: 'error',
    meaning:
      'The PersistentVolume the claim was bound to no longer exists. Data on it may be gone; pods using the claim cannot start.',
    causes: [
      'The PersistentVolume was deleted by hand, or its reclaim policy deleted it.',
      'The claim was restored from a backup without its volume.',
    ],
    checks: [
      { text: 'Check the volume the claim names: `kubectl get pv <volume>`.' },
      { text: 'Read the claim’s events.', action: EVENTS },
    ],
  },
  {
    id: 'pvc-status-storageclassnotfound',
    subject: 'pvc-status',
    match: 'StorageClassNotFound',
    title: 'The claim’s StorageClass does not exist',
    severity: 'error',
    meaning:
      'storageClassName names a class the cluster does not have, so nothing provisions a volume; the claim stays Pending with ProvisioningFailed events (`storageclass.storage.k8s.io "…" not found`).',
    causes: [
      'A typo, or a class name from another cluster or cloud (gp2 on AWS, standard on GKE, managed-csi on AKS).',
      'The CSI driver or chart that creates the class is not installed yet.',
    ],
    checks: [
      { text: 'List the classes the cluster has: `kubectl get storageclass`.' },
      {
        text: 'storageClassName cannot be changed on a claim: create the class, or recreate the claim with an existing one.',
      },
    ],
  },
  {
    id: 'pvc-status-nostorageclass',
    subject: 'pvc-status',
    match: 'NoStorageClass',
    title: 'The claim names no StorageClass',
    severity: 'warning',
    meaning:
      'With storageClassName empty, or unset while no class is the default, nothing provisions a volume: only a pre-created PersistentVolume that matches size, access modes and selector can bind the claim (FailedBinding "no persistent volumes available for this claim and no storage class is set").',
    causes: [
      'No StorageClass is marked default (annotation storageclass.kubernetes.io/is-default-class: "true").',
      'storageClassName: "" asks for static binding, and no PersistentVolume matches.',
    ],
    checks: [
      { text: 'Which class is the default: `kubectl get storageclass` (marked "(default)").' },
      { text: 'Volumes that could bind it: `kubectl get pv`.' },
    ],
  },
];

export const INGRESS_STATUS: GuidanceEntry[] = [
  {
    id: 'ingress-status-noaddress',
    subject: 'ingress-status',
    match: 'NoAddress',
    title: 'Ingress has no address',
    severity: 'warning',
    meaning:
      'No ingress controller has published an address in status.loadBalancer, so the host names resolve nowhere. A controller writes it once it has taken the Ingress on and its own load balancer has an address.',
    causes: [
      'No controller serves the Ingress’s class: ingressClassName names an IngressClass that does not exist, or it names none and no class is the default.',
      'The controller is not running, or failing to sync.',
      'The controller’s LoadBalancer Service has no external address yet (cloud load balancer still provisioning, or none on bare metal).',
    ],
    checks: [
      { text: 'List the classes and their controllers: `kubectl get ingressclass`.' },
      {
        text: 'Check the controller pods and their Service: `kubectl get pods,svc -A -l app.kubernetes.io/component=controller`.',
      },
      { text: 'Read the Ingress’s events.', action: EVENTS },
    ],
  },
  {
    id: 'ingress-status-servicenotfound',
    subject: 'ingress-status',
    match: 'ServiceNotFound',
    title: 'An Ingress backend Service does not exist',
    severity: 'error',
    meaning:
      'A rule or the default backend names a Service that is not in the Ingress’s namespace. Requests for those paths fail at the controller (503 from ingress-nginx).',
    causes: [
      'A typo, or a Service renamed or deleted by a chart upgrade.',
      'The Service lives in another namespace: an Ingress can only send traffic to Services in its own.',
    ],
    checks: [
      { text: 'List the namespace’s Services: `kubectl -n <namespace> get svc`.' },
      { text: '`kubectl -n <namespace> describe ingress <name>` marks each missing backend.' },
    ],
  },
];
