/**
 * The rows `kubectl get` prints for pods and core events, as the apiserver's table convertor
 * builds them (kubernetes pkg/printers/internalversion printPod and printEvent, 1.32): the same
 * columns, the same status words (CrashLoopBackOff, Init:0/2, Terminating), restarts with the
 * time of the last one, and ages in apimachinery's HumanDuration form. The server always builds
 * the wide cells; kubectl hides the priority-1 columns unless `-o wide`. Rules: a copy of
 * kubectl's own logic, not Skiff's, so the simulator depends on nothing of Skiff's (it is to be a
 * package of its own); what kubectl prints for an object, this prints for it.
 */

import type { ContainerStatus, CoreEvent, KubeObject, Pod, PodCondition } from './types';

interface ColumnDefinition {
  name: string;
  type: 'string' | 'integer' | 'date';
  format: string;
  description: string;
  priority: number;
}

interface RowCondition {
  type: 'Completed';
  status: 'True';
  reason: string;
  message: string;
}

interface PrintedRow {
  cells: (string | number)[];
  conditions?: RowCondition[];
}

export interface Printer {
  columns: readonly ColumnDefinition[];
  row(obj: KubeObject, nowMs: number): PrintedRow;
}

const column = (
  name: string,
  description: string,
  extra: Partial<ColumnDefinition> = {},
): ColumnDefinition => ({
  name,
  type: 'string',
  format: '',
  description,
  priority: 0,
  ...extra,
});
const NAME_DOC =
  'Name must be unique within a namespace. Is required when creating resources, although some resources may allow a client to request the generation of an appropriate name automatically.';
const AGE_DOC = 'CreationTimestamp is a timestamp representing the server time when this object was created.';

/** apimachinery's duration.HumanDuration: 59s, 4m30s, 75m, 5h20m, 36h, 3d4h, 90d, 2y10d. */
export function humanDuration(ms: number): string {
  const seconds = Math.trunc(ms / 1000);
  if (seconds < -1) return '<invalid>';
  if (seconds < 120) return `${Math.max(seconds, 0)}s`;
  const minutes = Math.trunc(seconds / 60);
  if (minutes < 10) return seconds % 60 === 0 ? `${minutes}m` : `${minutes}m${seconds % 60}s`;
  if (minutes < 180) return `${minutes}m`;
  const hours = Math.trunc(minutes / 60);
  if (hours < 8) return minutes % 60 === 0 ? `${hours}h` : `${hours}h${minutes % 60}m`;
  if (hours < 48) return `${hours}h`;
  const days = Math.trunc(hours / 24);
  if (hours < 24 * 8) return hours % 24 === 0 ? `${days}d` : `${days}d${hours % 24}h`;
  if (hours < 24 * 365 * 2) return `${days}d`;
  const years = Math.trunc(days / 365);
  if (hours < 24 * 365 * 8) return days % 365 === 0 ? `${years}y` : `${years}y${days % 365}d`;
  return `${years}y`;
}

/** translateTimestampSince: the age of a time, `<unknown>` for none. */
export function since(time: string | null | undefined, nowMs: number): string {
  const at = time ? Date.parse(time) : Number.NaN;
  return Number.isNaN(at) ? '<unknown>' : humanDuration(nowMs - at);
}

interface InitContainer {
  name: string;
  restartPolicy?: string;
}

const trueCondition = (conditions: readonly PodCondition[] | undefined, type: string) =>
  conditions?.some((c) => c.type === type && c.status === 'True') ?? false;

/** The later of a time and a container's last termination. */
function laterRestart(latest: string | undefined, c: ContainerStatus): string | undefined {
  const at = c.lastState?.terminated?.finishedAt;
  return at && (!latest || Date.parse(at) > Date.parse(latest)) ? at : latest;
}

export function podRow(pod: Pod, nowMs: number): PrintedRow {
  // A captured object may lack either; it still prints, as kubectl prints an empty phase.
  const status: Partial<Pod['status']> = pod.status ?? {};
  const spec: Partial<Pod['spec']> = pod.spec ?? {};
  let reason: string = (status.reason as string | undefined) || status.phase || '';
  if (status.conditions?.some((c) => c.type === 'PodScheduled' && c.reason === 'SchedulingGated'))
    reason = 'SchedulingGated';
  const inits = new Map(
    ((spec.initContainers ?? []) as InitContainer[]).map((c) => [c.name, c.restartPolicy === 'Always']),
  );
  const total = (spec.containers?.length ?? 0) + [...inits.values()].filter(Boolean).length;
  let ready = 0;
  let restarts = 0;
  let sidecarRestarts = 0;
  let lastRestart: string | undefined;
  let lastSidecarRestart: string | undefined;
  let initializing = false;
  const initStatuses = status.initContainerStatuses ?? [];
  for (const [i, c] of initStatuses.entries()) {
    restarts += c.restartCount ?? 0;
    lastRestart = laterRestart(lastRestart, c);
    const sidecar = inits.get(c.name) === true;
    if (sidecar) {
      sidecarRestarts += c.restartCount ?? 0;
      lastSidecarRestart = laterRestart(lastSidecarRestart, c);
    }
    const t = c.state?.terminated;
    const w = c.state?.waiting;
    if (t && t.exitCode === 0) continue;
    if (sidecar && c.started) {
      if (c.ready) ready++;
      continue;
    }
    initializing = true;
    if (t) reason = `Init:${t.reason || (t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`)}`;
    else if (w?.reason && w.reason !== 'PodInitializing') reason = `Init:${w.reason}`;
    else reason = `Init:${i}/${inits.size}`;
    break;
  }
  if (!initializing || trueCondition(status.conditions, 'Initialized')) {
    restarts = sidecarRestarts;
    lastRestart = lastSidecarRestart;
    let running = false;
    for (const c of [...(status.containerStatuses ?? [])].reverse()) {
      restarts += c.restartCount ?? 0;
      lastRestart = laterRestart(lastRestart, c);
      const w = c.state?.waiting;
      const t = c.state?.terminated;
      if (w?.reason) reason = w.reason;
      else if (t?.reason) reason = t.reason;
      else if (t) reason = t.signal ? `Signal:${t.signal}` : `ExitCode:${t.exitCode}`;
      else if (c.ready && c.state?.running) {
        running = true;
        ready++;
      }
    }
    if (reason === 'Completed' && running)
      reason = trueCondition(status.conditions, 'Ready') ? 'Running' : 'NotReady';
  }
  const terminal = status.phase === 'Succeeded' || status.phase === 'Failed';
  if (pod.metadata.deletionTimestamp && status.reason === 'NodeLost') reason = 'Unknown';
  else if (pod.metadata.deletionTimestamp && !terminal) reason = 'Terminating';

  const restartsText =
    restarts !== 0 && lastRestart ? `${restarts} (${since(lastRestart, nowMs)} ago)` : String(restarts);
  const podIPs = status.podIPs as { ip: string }[] | undefined;
  const gates = (spec.readinessGates as { conditionType: string }[] | undefined) ?? [];
  const gatesText =
    gates.length === 0
      ? '<none>'
      : `${gates.filter((g) => status.conditions?.find((c) => c.type === g.conditionType)?.status === 'True').length}/${gates.length}`;
  const row: PrintedRow = {
    cells: [
      pod.metadata.name,
      `${ready}/${total}`,
      reason,
      restartsText,
      since(pod.metadata.creationTimestamp, nowMs),
      podIPs?.[0]?.ip || '<none>',
      spec.nodeName || '<none>',
      (status.nominatedNodeName as string | undefined) || '<none>',
      gatesText,
    ],
  };
  const { phase } = status;
  if (phase === 'Succeeded' || phase === 'Failed') {
    const message = phase === 'Succeeded' ? 'The pod has completed successfully.' : 'The pod failed.';
    row.conditions = [{ type: 'Completed', status: 'True', reason: phase, message }];
  }
  return row;
}

export function eventRow(ev: CoreEvent, nowMs: number): PrintedRow {
  const first = ev.firstTimestamp ? since(ev.firstTimestamp, nowMs) : since(ev.eventTime, nowMs);
  let last = ev.lastTimestamp ? since(ev.lastTimestamp, nowMs) : first;
  let count = ev.count ?? 0;
  if (ev.series) {
    last = since(ev.series.lastObservedTime, nowMs);
    count = ev.series.count;
  } else if (count === 0) count = 1;
  const io: Partial<CoreEvent['involvedObject']> = ev.involvedObject ?? {};
  const kind = (io.kind ?? '').toLowerCase();
  const component = ev.source?.component || ev.reportingComponent || '';
  const instance = ev.source?.host || ev.reportingInstance || '';
  const source = component && instance ? `${component}, ${instance}` : component;
  return {
    cells: [
      last,
      ev.type ?? '',
      ev.reason ?? '',
      io.name ? `${kind}/${io.name}` : kind,
      io.fieldPath ?? '',
      source,
      (ev.message ?? '').trim(),
      first,
      count,
      ev.metadata.name,
    ],
  };
}

const POD_PRINTER: Printer = {
  columns: [
    column('Name', NAME_DOC, { format: 'name' }),
    column('Ready', 'The aggregate readiness state of this pod for accepting traffic.'),
    column('Status', 'The aggregate status of the containers in this pod.'),
    column(
      'Restarts',
      'The number of times the containers in this pod have been restarted and when the last container in this pod has restarted.',
    ),
    column('Age', AGE_DOC),
    column('IP', 'podIP address allocated to the pod. Routable at least within the cluster.', {
      priority: 1,
    }),
    column('Node', 'NodeName indicates in which node this pod is scheduled.', { priority: 1 }),
    column('Nominated Node', 'nominatedNodeName is set only when this pod preempts other pods on the node.', {
      priority: 1,
    }),
    column('Readiness Gates', 'If specified, all readiness gates will be evaluated for pod readiness.', {
      priority: 1,
    }),
  ],
  row: (obj, now) => podRow(obj as Pod, now),
};

const EVENT_PRINTER: Printer = {
  columns: [
    column('Last Seen', 'The time at which the most recent occurrence of this event was recorded.'),
    column('Type', 'Type of this event (Normal, Warning), new types could be added in the future'),
    column(
      'Reason',
      "This should be a short, machine understandable string that gives the reason for the transition into the object's current status.",
    ),
    column('Object', 'The object that this event is about.'),
    column(
      'Subobject',
      'If referring to a piece of an object instead of an entire object, this string should contain a valid JSON/Go field access statement.',
      { priority: 1 },
    ),
    column('Source', 'The component reporting this event. Should be a short machine understandable string.', {
      priority: 1,
    }),
    column('Message', 'A human-readable description of the status of this operation.'),
    column('First Seen', 'The time at which the event was first recorded.', { priority: 1 }),
    column('Count', 'The number of times this event has occurred.', { priority: 1 }),
    column('Name', NAME_DOC, { priority: 1, format: 'name' }),
  ],
  row: (obj, now) => eventRow(obj as CoreEvent, now),
};

/** The printer of a resource, as the apiserver has one; undefined where the simulator has none. */
export function printerFor(group: string, resource: string): Printer | undefined {
  if (group !== '') return undefined;
  if (resource === 'pods') return POD_PRINTER;
  if (resource === 'events') return EVENT_PRINTER;
  return undefined;
}
