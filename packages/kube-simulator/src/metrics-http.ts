/**
 * HTTP for metrics.k8s.io (pod and node usage), as the aggregator and metrics-server answer it,
 * including the two ways it fails: not registered at all (404), or registered but down (the
 * aggregator's plain-text 503, not a Status).
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { parseBool } from './log-http';
import { type MetricsProvider, type MetricsResult, NODE_METRICS, POD_METRICS } from './metrics';
import { buildFilter } from './selectors';
import { badRequest, methodNotAllowed, pathNotFound, type Sent, sendJson, sendStatus } from './status';

/** The group every metrics path is under; the router hands those paths here. */
export const METRICS_GROUP = POD_METRICS.group;

export interface MetricsFaults {
  /** metrics.k8s.io answers 503 as when metrics-server is unavailable. */
  metricsDown: boolean;
  /** metrics.k8s.io is not registered at all: 404 and absent from discovery. */
  metricsMissing: boolean;
}

/** The parts of a parsed /apis/metrics.k8s.io/… path the metrics routes read. */
export interface MetricsPath {
  version: string;
  watchPath: boolean;
  namespace: string | undefined;
  resource: string;
  name: string | undefined;
  subresource: string | undefined;
}

/** Answers for the whole group when it is missing or down, and says whether it did. */
export function metricsUnavailable(res: ServerResponse, faults: MetricsFaults): boolean {
  if (faults.metricsMissing) {
    sendStatus(res, pathNotFound());
    return true;
  }
  if (faults.metricsDown) {
    // kube-aggregator answers with http.Error, i.e. plain text, not a Status.
    res.writeHead(503, {
      'Content-Type': 'text/plain; charset=utf-8',
      'X-Content-Type-Options': 'nosniff',
    });
    res.end('service unavailable\n');
    return true;
  }
  return false;
}

/** GET of PodMetrics or NodeMetrics, one or a list; metrics-server serves no watch. */
export function serveMetrics(
  req: IncomingMessage,
  res: ServerResponse,
  p: MetricsPath,
  q: URLSearchParams,
  source: MetricsProvider,
): Sent {
  const isPods = p.resource === 'pods';
  if (
    p.version !== POD_METRICS.version ||
    (!isPods && p.resource !== 'nodes') ||
    p.subresource !== undefined
  ) {
    return sendStatus(res, pathNotFound());
  }
  if ((!isPods && p.namespace !== undefined) || p.watchPath) return sendStatus(res, pathNotFound());
  const def = isPods ? POD_METRICS : NODE_METRICS;
  if (req.method !== 'GET') return sendStatus(res, methodNotAllowed(req.method ?? '', def));
  if (parseBool(q.get('watch'))) return sendStatus(res, methodNotAllowed('WATCH', def));
  const filter = buildFilter(def, q.get('labelSelector'), q.get('fieldSelector'));
  if (!filter.ok) return sendStatus(res, badRequest(filter.message));
  let result: MetricsResult;
  if (isPods) {
    result =
      p.name !== undefined
        ? source.getPod(p.namespace ?? '', p.name)
        : source.listPods(p.namespace, filter.filter);
  } else {
    result = p.name !== undefined ? source.getNode(p.name) : source.listNodes(filter.filter);
  }
  return result.ok ? sendJson(res, 200, result.body) : sendStatus(res, result.status);
}
