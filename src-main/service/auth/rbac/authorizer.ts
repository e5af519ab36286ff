/**
 * `--authorize rbac`: what each principal may read of a cluster, decided by the cluster's own RBAC
 * through SubjectAccessReviews, while the watch caches stay shared (one per cluster, under Skiff's
 * account). Rules:
 * - Impersonating each user instead would need a cache per user; reviewing the reads against the
 *   shared caches keeps one watch per kind and cluster whatever the number of users.
 * - Each decision is remembered 30 s per (cluster, user, groups, verb, group, resource,
 *   subresource, namespace, name) and identical concurrent questions share one review
 *   (decisions.ts); a question across namespaces asks cluster-wide first, then the candidates,
 *   at most `concurrency` at a time.
 * - A snapshot has no apiserver to ask and holds what its taker could read: it is open.
 * - A caller with no identity may read nothing; a review that fails refuses the read (503).
 */
import type { ClusterConnection } from '../../clusters/cluster';
import type { Principal } from '../../context';
import type { Logger } from '../../logger';
import { OPEN_ACCESS, type ReadAccess, type ResourceAttributes } from './access';
import { DECISION_MAX_ENTRIES, DECISION_TTL_MS, DecisionCache } from './decisions';
import { forbiddenProblem } from './forbidden';
import { review } from './review';
import { type KubeSubject, type SubjectPrefixes, subjectOf } from './subject';

export interface RbacAuthorizerOptions extends SubjectPrefixes {
  logger: Logger;
  /** A review's bound: the cluster request timeout. */
  timeoutMs: number;
  now?: () => number;
  ttlMs?: number;
  maxEntries?: number;
  /** Reviews one question across namespaces has in flight at most (default 8). */
  concurrency?: number;
}

export type Authorizer = (cluster: ClusterConnection, principal: Principal) => ReadAccess;

/** Runs `fn` over `items`, at most `limit` at a time, and answers which passed, in their order. */
async function passing(
  items: readonly string[],
  limit: number,
  fn: (item: string) => Promise<boolean>,
): Promise<Set<string>> {
  const verdicts: boolean[] = [];
  // One iterator shared by every worker: each takes the next item when it is free.
  const next = items.entries();
  const worker = async () => {
    for (const [i, item] of next) verdicts[i] = await fn(item);
  };
  await Promise.all(Array.from({ length: limit }, worker));
  return new Set(items.filter((_, i) => verdicts[i]));
}

/** A caller with no identity: every read refused, naming the permission it lacked. */
const NOBODY: ReadAccess = {
  open: false,
  allows: async () => false,
  require: async (attrs) => {
    throw forbiddenProblem(undefined, attrs);
  },
  namespaces: async () => new Set<string>(),
};

function keyOf(clusterId: string, subject: KubeSubject, attrs: ResourceAttributes): string {
  return JSON.stringify([
    clusterId,
    subject.user,
    [...subject.groups].sort(),
    attrs.verb,
    attrs.group,
    attrs.resource,
    attrs.subresource ?? null,
    attrs.namespace ?? null,
    attrs.name ?? null,
  ]);
}

export function createRbacAuthorizer(opts: RbacAuthorizerOptions): Authorizer {
  const decisions = new DecisionCache({
    ttlMs: opts.ttlMs ?? DECISION_TTL_MS,
    maxEntries: opts.maxEntries ?? DECISION_MAX_ENTRIES,
    now: opts.now ?? Date.now,
  });
  const concurrency = opts.concurrency ?? 8;
  return (cluster, principal) => {
    if (cluster.frozen) return OPEN_ACCESS;
    const subject = subjectOf(principal.identity, opts);
    if (!subject) return NOBODY;
    const allows = (attrs: ResourceAttributes) =>
      decisions.decide(keyOf(cluster.clusterId, subject, attrs), async () => {
        const allowed = await review(cluster.client, subject, attrs, opts.timeoutMs).catch((err: unknown) => {
          opts.logger.warn({ err, cluster: cluster.clusterId, user: subject.user }, 'access review failed');
          throw err;
        });
        return allowed;
      });
    return {
      open: false,
      allows,
      async require(attrs) {
        if (!(await allows(attrs))) throw forbiddenProblem(subject.user, attrs);
      },
      async namespaces(attrs, candidates) {
        const { namespace: _n, name: _name, ...scope } = attrs as ResourceAttributes;
        if (await allows(scope)) return 'all';
        return passing([...new Set(candidates)], concurrency, (namespace) => allows({ ...scope, namespace }));
      },
    };
  };
}
