/**
 * GET pods/{name}/log. Validation and error texts follow the apiserver (container choice,
 * PodLogOptions validation) and the kubelet (validateContainerLogStatus), whose 400 answers
 * the apiserver relays as BadRequest Status objects. Output is text/plain, optionally
 * RFC3339Nano-prefixed, and with follow=true stays open until the instance exits.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import type { LogLine, LogRun } from './logs';
import { currentRunRef, previousRunRef } from './pod-lifecycle';
import { RESOURCES } from './resources';
import { badRequest, invalid, notFound, type Status, sendStatus, status } from './status';
import type { SimStore } from './store';
import { nanoTime, parseTime } from './time';
import type { ContainerStatus, Pod } from './types';

const PODS = RESOURCES.find((d) => d.resource === 'pods') as (typeof RESOURCES)[number];

interface LogOptions {
  container: string | undefined;
  follow: boolean;
  previous: boolean;
  timestamps: boolean;
  sinceTime: number | undefined;
  sinceSeconds: number | undefined;
  tailLines: number | undefined;
  limitBytes: number | undefined;
}

export function parseBool(value: string | null): boolean {
  return value !== null && ['1', 't', 'T', 'true', 'TRUE', 'True'].includes(value);
}

function parseIntParam(q: URLSearchParams, name: string): number | undefined | Status {
  const raw = q.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^-?\d+$/.test(raw))
    return badRequest(`invalid value for ${name}: strconv.ParseInt: parsing "${raw}": invalid syntax`);
  return Number(raw);
}

function parseOptions(podName: string, q: URLSearchParams): LogOptions | Status {
  const sinceSeconds = parseIntParam(q, 'sinceSeconds');
  const tailLines = parseIntParam(q, 'tailLines');
  const limitBytes = parseIntParam(q, 'limitBytes');
  for (const v of [sinceSeconds, tailLines, limitBytes]) if (typeof v === 'object') return v;
  const sinceRaw = q.get('sinceTime');
  let sinceTime: number | undefined;
  if (sinceRaw) {
    sinceTime = parseTime(sinceRaw);
    if (Number.isNaN(sinceTime))
      return badRequest(`parsing time "${sinceRaw}" as "2006-01-02T15:04:05Z07:00": cannot parse`);
  }
  const causes: { field: string; message: string }[] = [];
  if (typeof tailLines === 'number' && tailLines < 0)
    causes.push({
      field: 'tailLines',
      message: `Invalid value: ${tailLines}: must be greater than or equal to 0`,
    });
  if (typeof limitBytes === 'number' && limitBytes < 1)
    causes.push({ field: 'limitBytes', message: `Invalid value: ${limitBytes}: must be greater than 0` });
  if (typeof sinceSeconds === 'number' && sinceSeconds < 1)
    causes.push({ field: 'sinceSeconds', message: `Invalid value: ${sinceSeconds}: must be greater than 0` });
  if (sinceTime !== undefined && sinceSeconds !== undefined)
    causes.push({
      field: '',
      message: 'Forbidden: at most one of `sinceTime` or `sinceSeconds` may be specified',
    });
  if (causes.length > 0) return invalid('PodLogOptions', podName, causes);
  return {
    container: q.get('container') || undefined,
    follow: parseBool(q.get('follow')),
    previous: parseBool(q.get('previous')),
    timestamps: parseBool(q.get('timestamps')),
    sinceTime,
    sinceSeconds: sinceSeconds as number | undefined,
    tailLines: tailLines as number | undefined,
    limitBytes: limitBytes as number | undefined,
  };
}

function goList(names: string[]): string {
  return `[${names.join(' ')}]`;
}

/** Resolves the container the way the apiserver does before asking the kubelet. */
function chooseContainer(pod: Pod, requested: string | undefined): string | Status {
  const name = pod.metadata.name;
  const containers = pod.spec.containers.map((c) => c.name);
  const inits = (pod.spec.initContainers ?? []).map((c) => c.name);
  if (!requested) {
    if (containers.length === 1) return containers[0] as string;
    let msg = `a container name must be specified for pod ${name}, choose one of: ${goList(containers)}`;
    if (inits.length > 0) msg += ` or one of the init containers: ${goList(inits)}`;
    return badRequest(msg);
  }
  if (!containers.includes(requested) && !inits.includes(requested)) {
    return badRequest(`container ${requested} is not valid for pod ${name}`);
  }
  return requested;
}

/** The kubelet's answer for which instance to read, or its error text. */
function chooseRun(store: SimStore, pod: Pod, container: string, previous: boolean): LogRun | string {
  const podName = pod.metadata.name;
  const cs: ContainerStatus | undefined =
    pod.status.containerStatuses?.find((c) => c.name === container) ??
    pod.status.initContainerStatuses?.find((c) => c.name === container);
  if (!cs) return `container "${container}" in pod "${podName}" is not available`;
  if (previous) {
    const ref = previousRunRef(pod, cs);
    if (!ref) return `previous terminated container "${container}" in pod "${podName}" not found`;
    return store.logs.run(ref);
  }
  const ref = currentRunRef(pod, cs);
  if (ref) return store.logs.run(ref);
  const reason = cs.state.waiting?.reason ?? 'ContainerCreating';
  if (reason === 'ErrImagePull')
    return `container "${container}" in pod "${podName}" is waiting to start: image can't be pulled`;
  if (reason === 'ImagePullBackOff') {
    return `container "${container}" in pod "${podName}" is waiting to start: trying and failing to pull image`;
  }
  return `container "${container}" in pod "${podName}" is waiting to start: ${reason}`;
}

export function serveLog(
  req: IncomingMessage,
  res: ServerResponse,
  store: SimStore,
  namespace: string,
  podName: string,
  query: URLSearchParams,
  unreachableNodes: ReadonlySet<string>,
): (() => void) | undefined {
  const pod = store.peek('pods', namespace, podName) as Pod | undefined;
  if (!pod) return void sendStatus(res, notFound(PODS, podName));
  const opts = parseOptions(podName, query);
  if ('code' in opts) return void sendStatus(res, opts);
  const container = chooseContainer(pod, opts.container);
  if (typeof container !== 'string') return void sendStatus(res, container);
  const nodeName = pod.spec.nodeName;
  if (!nodeName) {
    // An unscheduled pod has no kubelet to ask: the apiserver streams nothing.
    res.writeHead(200, { 'Content-Type': 'text/plain' });
    res.end();
    return undefined;
  }
  if (unreachableNodes.has(nodeName)) {
    const ip = (pod.status.hostIP as string | undefined) ?? '10.0.1.13';
    return void sendStatus(
      res,
      status(
        500,
        'InternalError',
        `Get "https://${ip}:10250/containerLogs/${namespace}/${podName}/${container}": dial tcp ${ip}:10250: connect: no route to host`,
      ),
    );
  }
  const run = chooseRun(store, pod, container, opts.previous);
  if (typeof run === 'string') return void sendStatus(res, badRequest(run));
  return streamRun(req, res, run, opts, store.now());
}

function selectLines(lines: readonly LogLine[], opts: LogOptions, now: number): LogLine[] {
  let out =
    opts.tailLines !== undefined ? lines.slice(Math.max(0, lines.length - opts.tailLines)) : lines.slice();
  const since =
    opts.sinceTime ?? (opts.sinceSeconds !== undefined ? now - opts.sinceSeconds * 1000 : undefined);
  if (since !== undefined) out = out.filter((l) => l.ts >= since);
  return out;
}

function streamRun(
  req: IncomingMessage,
  res: ServerResponse,
  run: LogRun,
  opts: LogOptions,
  now: number,
): (() => void) | undefined {
  res.writeHead(200, { 'Content-Type': 'text/plain', 'Cache-Control': 'no-cache, private' });
  let budget = opts.limitBytes ?? Number.POSITIVE_INFINITY;
  const render = (line: LogLine) =>
    opts.timestamps ? `${nanoTime(line.ts, line.nanos)} ${line.text}\n` : `${line.text}\n`;
  /** Writes within the byte budget; false once the budget is used up. */
  const write = (text: string): boolean => {
    if (budget <= 0) return false;
    const buf = Buffer.from(text);
    if (buf.length > budget) {
      res.write(buf.subarray(0, budget));
      budget = 0;
      return false;
    }
    budget -= buf.length;
    res.write(buf);
    return budget > 0;
  };
  const backlog = selectLines(run.lines, opts, now);
  const chunk: string[] = [];
  let open = true;
  for (const line of backlog) chunk.push(render(line));
  if (chunk.length > 0) open = write(chunk.join(''));
  if (!opts.follow || run.ended || !open) {
    res.end();
    return undefined;
  }
  const since = opts.sinceTime;
  const follower = (line: LogLine | null) => {
    if (line === null) return stop();
    if (since !== undefined && line.ts < since) return;
    if (!write(render(line))) stop();
  };
  const stop = () => {
    run.followers.delete(follower);
    if (!res.writableEnded) res.end();
  };
  run.followers.add(follower);
  req.on('close', stop);
  res.on('close', stop);
  return stop;
}
