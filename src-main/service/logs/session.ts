import type { KubeObject } from '../../../src-shared/contract/models';
import type { ResourceKindInfo } from '../../../src-shared/kube/kinds';
import { type LabelSelector, selectorText } from '../../../src-shared/kube/selector-text';
import { ProblemError } from '../errors';
import { ContainerLog, type ContainerLogDeps, type ContainerLogOptions } from './container-log';
import { type LogEvent, markerEvent, sleep } from './events';
import { LiveMerge, mergeFinished } from './merge';
import { containerNames, defaultContainer, type PodLike } from './pod';

export interface LogSessionDeps extends ContainerLogDeps {
  getWorkload(
    kind: ResourceKindInfo,
    namespace: string,
    name: string,
    signal: AbortSignal,
  ): Promise<KubeObject>;
  listPods(namespace: string, labelSelector: string, signal: AbortSignal): Promise<PodLike[]>;
  /** How often a followed workload is checked for new pods. */
  discoverMs: number;
}

export interface LogRequest extends ContainerLogOptions {
  namespace: string;
  kind: ResourceKindInfo;
  name: string;
  container?: string;
  /** Epoch ms; with follow, the stream ends once the clock passes it. */
  until?: number;
}

export interface LogSession {
  /** More than one pod may contribute: lines are tagged with their pod in text output too. */
  multiPod: boolean;
  events: AsyncGenerator<LogEvent[], void, undefined>;
}

async function podsOf(deps: LogSessionDeps, req: LogRequest, signal: AbortSignal): Promise<PodLike[]> {
  if (req.kind.singular === 'pod') {
    const pod = await deps.getPod(req.namespace, req.name, signal);
    if (!pod)
      throw new ProblemError(
        'resource_not_found',
        `pod "${req.name}" not found in namespace ${req.namespace}`,
      );
    return [pod];
  }
  const workload = await deps.getWorkload(req.kind, req.namespace, req.name, signal);
  const selector = selectorText((workload as { spec?: { selector?: LabelSelector } }).spec?.selector);
  if (selector === '') return [];
  const pods = await deps.listPods(req.namespace, selector, signal);
  return pods.sort((a, b) =>
    a.metadata.name < b.metadata.name ? -1 : a.metadata.name > b.metadata.name ? 1 : 0,
  );
}

/** The container to read in `pod`, or a problem saying which names exist. */
function chooseContainer(pod: PodLike, requested: string | undefined): string | ProblemError {
  const { containers, initContainers } = containerNames(pod);
  const chosen = requested ?? defaultContainer(pod);
  if (chosen && (containers.includes(chosen) || initContainers.includes(chosen))) return chosen;
  const inits = initContainers.length > 0 ? ` or the init containers ${initContainers.join(', ')}` : '';
  return new ProblemError(
    'invalid_parameter',
    `container "${requested ?? ''}" is not in pod ${pod.metadata.name}; choose one of ${containers.join(', ')}${inits}`,
    { containers, initContainers },
  );
}

/**
 * Opens the logs of a pod, or of every pod a workload selects, and returns their events in time
 * order. Every first request to the cluster has been answered when this resolves, so a refusal
 * (unknown pod, waiting container, no previous instance) is thrown as a problem before anything
 * is streamed. For a workload, pods that cannot be read become `unavailable` markers instead,
 * unless none can be read at all.
 */
export async function openLogSession(
  deps: LogSessionDeps,
  req: LogRequest,
  outer: AbortSignal,
): Promise<LogSession> {
  const abort = new AbortController();
  const signal = AbortSignal.any([outer, abort.signal]);
  const single = req.kind.singular === 'pod';
  const known = new Set<string>();
  const unavailable: LogEvent[] = [];

  const openPod = async (pod: PodLike, options: ContainerLogOptions): Promise<ContainerLog | null> => {
    known.add(pod.metadata.name);
    const container = chooseContainer(pod, req.container);
    if (container instanceof ProblemError) {
      if (single) throw container;
      unavailable.push(
        markerEvent(pod.metadata.name, req.container ?? '', 'unavailable', Date.now(), container.message),
      );
      return null;
    }
    const log = new ContainerLog(
      deps,
      { namespace: req.namespace, pod: pod.metadata.name, container },
      options,
      signal,
    );
    try {
      await log.open(pod);
      return log;
    } catch (err) {
      if (single || !(err instanceof ProblemError) || err.status >= 500) throw err;
      unavailable.push(markerEvent(pod.metadata.name, container, 'unavailable', Date.now(), err.message));
      return null;
    }
  };

  let logs: ContainerLog[];
  try {
    const pods = await podsOf(deps, req, signal);
    const opened = await Promise.all(pods.map((p) => openPod(p, req)));
    logs = opened.filter((l): l is ContainerLog => l !== null);
    if (logs.length === 0 && unavailable.length > 0) {
      throw new ProblemError(
        'log_unavailable',
        `no pod of ${req.kind.singular} ${req.name} has this log: ${unavailable[0]!.entry.message}`,
      );
    }
  } catch (err) {
    abort.abort();
    throw err;
  }

  const follow = req.follow && !req.previous;
  let untilTimer: NodeJS.Timeout | undefined;
  if (follow && req.until !== undefined)
    untilTimer = setTimeout(() => abort.abort(), Math.max(0, req.until - Date.now()));

  /** A followed workload gains the pods it creates later (scale-up, rollout, the next job pod). */
  const discover = async (live: LiveMerge) => {
    while (!signal.aborted) {
      await sleep(deps.discoverMs, signal);
      if (signal.aborted) return;
      try {
        const pods = await podsOf(deps, req, signal);
        for (const pod of pods) {
          if (known.has(pod.metadata.name)) continue;
          const log = await openPod(pod, { ...req, tailLines: undefined });
          if (!log) continue;
          const added = markerEvent(
            pod.metadata.name,
            log.target.container,
            'pod-added',
            Date.now(),
            `pod ${pod.metadata.name} joined`,
          );
          live.add(prepend([added], log.batches()));
        }
      } catch (err) {
        deps.logger.debug({ err: String(err) }, 'could not look for new pods of a followed workload');
      }
    }
  };

  async function* events(): AsyncGenerator<LogEvent[], void, undefined> {
    try {
      if (unavailable.length > 0) yield unavailable.splice(0);
      if (single) {
        if (logs[0]) yield* logs[0].batches();
      } else if (!follow) {
        yield* mergeFinished(logs.map((l) => l.batches()));
      } else {
        const live = new LiveMerge();
        for (const l of logs) live.add(l.batches());
        void discover(live);
        yield* live.run(signal);
      }
    } finally {
      clearTimeout(untilTimer);
      abort.abort();
    }
  }
  return { multiPod: !single, events: events() };
}

async function* prepend(
  first: LogEvent[],
  rest: AsyncGenerator<LogEvent[], void, undefined>,
): AsyncGenerator<LogEvent[], void, undefined> {
  yield first;
  yield* rest;
}
