/**
 * HTTP routing for the Kubernetes REST paths the simulator serves, plus the fault knobs
 * (latency, hang, 401, metrics down). Every error leaves as a metav1.Status except where the
 * real component answers differently. Discovery reports the real apiserver's verbs; of them the
 * simulator serves get, list and watch, and create, replace (PUT) and delete (writes.ts) for the kinds it
 * stores; any other verb is 405, as is a verb the kind does not have. Logs (log-http.ts),
 * metrics.k8s.io (metrics-http.ts), the Tables kubectl get asks for (table-http.ts) and
 * SubjectAccessReviews (access-review.ts, the one review it answers) are answered beside this file.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { type AccessReviews, AUTHORIZATION_GROUP, reviewAccess } from './access-review';
import type { SimAuth } from './auth';
import { apiGroupList, apiVersions, resourceList, versionInfo } from './discovery';
import {
  AGGREGATED_CONTENT_TYPE,
  aggregatedCore,
  aggregatedGroups,
  wantsAggregated,
} from './discovery-aggregated';
import { getObject, type ListOrder, listObjects } from './list';
import { parseBool, serveLog } from './log-http';
import type { MetricsProvider } from './metrics';
import {
  METRICS_GROUP,
  type MetricsFaults,
  type MetricsPath,
  metricsUnavailable,
  serveMetrics,
} from './metrics-http';
import { isStored, type ResourceDef } from './resources';
import { buildFilter } from './selectors';
import {
  badRequest,
  methodNotAllowed,
  pathNotFound,
  SENT,
  type Sent,
  sendJson,
  sendRaw,
  sendStatus,
  serviceUnavailable,
  unauthorized,
} from './status';
import type { SimStore } from './store';
import { listTable, objectTable, tableRequest } from './table-http';
import { serveWatch } from './watch';
import { createObject, deleteObject, replaceObject } from './writes';

export interface Faults extends MetricsFaults {
  /** Added before every response. */
  latencyMs: number;
  /** Accept requests and never answer. */
  hang: boolean;
  /** Reject every request with 401 (token revoked). */
  unauthorized: boolean;
  /**
   * Discovery paths (`/api`, `/apis`, `/apis/apps/v1`, …) that answer 503, as an apiserver whose
   * discovery handler or a proxy in front of it fails; everything else still answers.
   */
  discoveryDown: string[];
  /** SubjectAccessReviews answer 503, as an apiserver that cannot reach its authorizer. */
  accessReviewsDown: boolean;
}

interface ServerDeps {
  store: SimStore;
  metrics: MetricsProvider;
  faults: Faults;
  auth: SimAuth;
  /** Counts the SubjectAccessReviews answered (access-review.ts). */
  reviews: AccessReviews;
  bookmarkMs: number;
  serverAddress: () => string;
  listOrder?: ListOrder;
  /** Answer aggregated discovery (apidiscovery.k8s.io/v2) to a client that asks for it; default true. */
  aggregatedDiscovery?: boolean;
}

/** A parsed /api/… or /apis/… path; the metrics routes read the same parts. */
interface ResourcePath extends MetricsPath {
  group: string;
}

const PUBLIC_PATHS = new Set(['/version', '/healthz', '/livez', '/readyz']);

export class Router {
  private readonly streams = new Set<() => void>();

  constructor(private readonly deps: ServerDeps) {}

  /** Ends every open watch and log follow. */
  closeStreams(): void {
    for (const stop of [...this.streams]) stop();
    this.streams.clear();
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { faults } = this.deps;
    if (faults.hang) return;
    if (faults.latencyMs > 0) await new Promise((r) => setTimeout(r, faults.latencyMs));
    if (faults.hang || res.destroyed) return;
    const url = new URL(req.url ?? '/', 'http://simulator');
    const path = url.pathname.replace(/\/+$/, '') || '/';
    if (faults.unauthorized || (!PUBLIC_PATHS.has(path) && this.deps.auth.userOf(req) === null)) {
      sendStatus(res, unauthorized());
      return;
    }
    try {
      await this.route(req, res, path, url.searchParams);
    } catch (err) {
      sendJson(res, 500, {
        kind: 'Status',
        apiVersion: 'v1',
        metadata: {},
        status: 'Failure',
        message: `simulator error: ${err instanceof Error ? err.message : String(err)}`,
        reason: 'InternalError',
        code: 500,
      });
    }
  }

  private route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    q: URLSearchParams,
  ): Sent | Promise<Sent> {
    if (path === '/version') return sendJson(res, 200, versionInfo());
    if (path === '/healthz' || path === '/livez' || path === '/readyz') {
      res.writeHead(200, { 'Content-Type': 'text/plain; charset=utf-8' });
      res.end('ok');
      return SENT;
    }
    if (this.deps.faults.discoveryDown.includes(path))
      return sendStatus(res, serviceUnavailable('the discovery handler is unavailable'));
    const segs = path
      .split('/')
      .filter((s) => s !== '')
      .map(decodeURIComponent);
    const metricsServed = !this.deps.faults.metricsMissing;
    const { kinds } = this.deps.store;
    const aggregated = this.deps.aggregatedDiscovery !== false && wantsAggregated(req.headers.accept);
    if (segs[0] === 'api') {
      if (segs.length === 1) {
        if (aggregated) return sendAggregated(res, aggregatedCore(kinds));
        return sendJson(res, 200, apiVersions(this.deps.serverAddress()));
      }
      if (segs.length === 2) return this.sendDiscovery(res, '', segs[1] as string);
      return this.resource(req, res, parseResourcePath('', segs[1] as string, segs.slice(2)), q);
    }
    if (segs[0] === 'apis') {
      if (segs.length === 1) {
        if (aggregated) {
          const metrics = { served: metricsServed, down: this.deps.faults.metricsDown };
          return sendAggregated(res, aggregatedGroups(kinds, metrics));
        }
        return sendJson(res, 200, apiGroupList(kinds, metricsServed));
      }
      const group = segs[1] as string;
      if (group === METRICS_GROUP && metricsUnavailable(res, this.deps.faults)) return SENT;
      if (segs.length === 2) return sendStatus(res, pathNotFound());
      if (segs.length === 3) return this.sendDiscovery(res, group, segs[2] as string);
      return this.resource(req, res, parseResourcePath(group, segs[2] as string, segs.slice(3)), q);
    }
    return sendStatus(res, pathNotFound());
  }

  private sendDiscovery(res: ServerResponse, group: string, version: string): Sent {
    const doc = resourceList(this.deps.store.kinds, group, version);
    if (doc === undefined) return sendStatus(res, pathNotFound());
    return sendJson(res, 200, doc);
  }

  private resource(
    req: IncomingMessage,
    res: ServerResponse,
    p: ResourcePath | undefined,
    q: URLSearchParams,
  ): Sent | Promise<Sent> {
    if (!p) return sendStatus(res, pathNotFound());
    if (p.group === METRICS_GROUP) return serveMetrics(req, res, p, q, this.deps.metrics);
    const def = this.deps.store.kinds.inGroup(p.group, p.version, p.resource);
    if (!def) return sendStatus(res, pathNotFound());
    if (
      (p.namespace !== undefined && !def.namespaced) ||
      (def.namespaced && p.name !== undefined && p.namespace === undefined)
    ) {
      return sendStatus(res, pathNotFound());
    }
    const plain = p.subresource === undefined && !p.watchPath;
    if (
      req.method === 'POST' &&
      plain &&
      p.name === undefined &&
      def.group === AUTHORIZATION_GROUP &&
      def.resource === 'subjectaccessreviews'
    ) {
      const { store, reviews, faults } = this.deps;
      return reviewAccess(req, res, store, reviews, faults.accessReviewsDown);
    }
    if (req.method === 'POST' && plain && p.name === undefined)
      return createObject(req, res, this.deps.store, def, p.namespace);
    if (req.method === 'DELETE' && plain && p.name !== undefined)
      return deleteObject(res, this.deps.store, def, p.namespace, p.name);
    if (req.method === 'PUT' && plain && p.name !== undefined)
      return replaceObject(req, res, this.deps.store, def, p.namespace, p.name);
    if (req.method !== 'GET') return sendStatus(res, methodNotAllowed(req.method ?? '', def));
    if (p.subresource !== undefined) return this.subresource(req, res, def, p, q);
    if (!isStored(def)) return sendStatus(res, methodNotAllowed('GET', def));

    const filter = buildFilter(
      def,
      q.get('labelSelector'),
      nameField(q.get('fieldSelector'), p.watchPath ? p.name : undefined),
    );
    if (!filter.ok) return sendStatus(res, badRequest(filter.message));
    const watching = p.watchPath || parseBool(q.get('watch'));
    if (watching && !def.verbs.includes('watch')) return sendStatus(res, methodNotAllowed('GET', def));
    // kubectl get (and get -w) asks for a Table.
    const printing = tableRequest(def, req.headers.accept, q.get('includeObject'), this.deps.store.now);
    if (printing && 'code' in printing) return sendStatus(res, printing);
    if (p.name !== undefined && !p.watchPath) {
      const got = getObject(this.deps.store, def, p.namespace, p.name);
      if (!got.ok) return sendStatus(res, got.status);
      return sendRaw(res, 200, printing ? objectTable(printing, def, got.json) : got.json);
    }
    const rv = q.get('resourceVersion') ?? undefined;
    if (rv !== undefined && rv !== '' && !/^\d+$/.test(rv)) {
      return sendStatus(res, badRequest(`invalid resource version "${rv}": must be a non-negative integer`));
    }
    if (watching) {
      const timeout = q.get('timeoutSeconds');
      const stop = serveWatch(req, res, this.deps.store, def, {
        namespace: p.namespace,
        filter: filter.filter,
        resourceVersion: rv,
        allowBookmarks: parseBool(q.get('allowWatchBookmarks')),
        sendInitialEvents: parseBool(q.get('sendInitialEvents')),
        timeoutSeconds: timeout && /^\d+$/.test(timeout) ? Number(timeout) : undefined,
        bookmarkMs: this.deps.bookmarkMs,
        ...(printing ? { print: (json: string) => objectTable(printing, def, json) } : {}),
      });
      return this.track(res, stop);
    }
    const limitRaw = q.get('limit');
    if (limitRaw && !/^-?\d+$/.test(limitRaw)) {
      return sendStatus(res, badRequest(`limit: Invalid value: "${limitRaw}": must be an integer`));
    }
    const listed = listObjects(this.deps.store, def, {
      namespace: p.namespace,
      filter: filter.filter,
      limit: limitRaw ? Number(limitRaw) : 0,
      continueToken: q.get('continue') || undefined,
      order: this.deps.listOrder ?? 'key',
    });
    if (!listed.ok) return sendStatus(res, listed.status);
    return sendRaw(res, 200, printing ? listTable(printing, def, listed.json) : listed.json);
  }

  private subresource(
    req: IncomingMessage,
    res: ServerResponse,
    def: ResourceDef,
    p: ResourcePath,
    q: URLSearchParams,
  ): Sent {
    const name = p.name as string;
    if (def.resource === 'pods' && def.group === '' && p.subresource === 'log' && p.namespace) {
      const stop = serveLog(req, res, this.deps.store, p.namespace, name, q, this.unreachableNodes());
      return stop ? this.track(res, stop) : SENT;
    }
    if (p.subresource === 'status' && def.storage === undefined) {
      const got = getObject(this.deps.store, def, p.namespace, name);
      return got.ok ? sendRaw(res, 200, got.json) : sendStatus(res, got.status);
    }
    return sendStatus(res, pathNotFound());
  }

  private unreachableNodes(): Set<string> {
    const out = new Set<string>();
    for (const node of this.deps.store.table('nodes').values()) {
      const conditions = (node.status as { conditions?: { type: string; status: string }[] } | undefined)
        ?.conditions;
      const ready = conditions?.find((c) => c.type === 'Ready');
      if (ready && ready.status !== 'True') out.add(node.metadata.name);
    }
    return out;
  }

  private track(res: ServerResponse, stop: () => void): Sent {
    this.streams.add(stop);
    res.on('close', () => this.streams.delete(stop));
    return SENT;
  }
}

function parseResourcePath(group: string, version: string, rest: string[]): ResourcePath | undefined {
  let parts = rest;
  const watchPath = parts[0] === 'watch';
  if (watchPath) parts = parts.slice(1);
  if (parts[0] === 'namespaces' && parts.length >= 3) {
    if (parts.length > 5) return undefined;
    return {
      group,
      version,
      watchPath,
      namespace: parts[1],
      resource: parts[2] as string,
      name: parts[3],
      subresource: parts[4],
    };
  }
  if (parts.length === 0 || parts.length > 3) return undefined;
  return {
    group,
    version,
    watchPath,
    namespace: undefined,
    resource: parts[0] as string,
    name: parts[1],
    subresource: parts[2],
  };
}

function sendAggregated(res: ServerResponse, doc: unknown): Sent {
  return sendRaw(res, 200, JSON.stringify(doc), { 'Content-Type': AGGREGATED_CONTENT_TYPE, Vary: 'Accept' });
}

/** Legacy /watch/.../{name} paths watch one object: the same as a metadata.name field selector. */
function nameField(fieldSelector: string | null, name: string | undefined): string | null {
  if (name === undefined) return fieldSelector;
  const byName = `metadata.name=${name}`;
  return fieldSelector ? `${fieldSelector},${byName}` : byName;
}
