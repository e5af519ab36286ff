/**
 * What a read may see, as every operation asks it: the one place reads are authorized (issue 26
 * §2). Rules:
 * - Operations never ask the cluster themselves; they ask a ReadAccess for (principal, cluster),
 *   which `--authorize rbac` answers with SubjectAccessReviews (rbac/authorizer.ts) and which is
 *   OPEN_ACCESS otherwise (and for an opened snapshot, which has no apiserver to ask).
 * - Attributes are the apiserver's own: verb, API group ('' for core), resource (plural), optional
 *   subresource (`pods/log` is resource 'pods', subresource 'log'), namespace (absent: cluster-wide).
 * - A refusal is a 403 `forbidden` problem that names the missing permission the way kubectl does.
 */

export type ReadVerb = 'get' | 'list' | 'watch';

export interface ResourceAttributes {
  verb: ReadVerb;
  group: string;
  resource: string;
  subresource?: string;
  namespace?: string;
  name?: string;
}

export interface ReadAccess {
  /** True when every read is allowed (authorization off, or a snapshot): callers may skip filtering. */
  readonly open: boolean;
  allows(attrs: ResourceAttributes): Promise<boolean>;
  /** Resolves when allowed; rejects with a 403 `forbidden` problem naming the permission otherwise. */
  require(attrs: ResourceAttributes): Promise<void>;
  /**
   * For a read across namespaces: 'all' when the verb is allowed cluster-wide, else the subset of
   * `candidates` (the namespaces the cache holds) where it is allowed in that namespace.
   */
  namespaces(
    attrs: Omit<ResourceAttributes, 'namespace' | 'name'>,
    candidates: Iterable<string>,
  ): Promise<'all' | ReadonlySet<string>>;
}

export const OPEN_ACCESS: ReadAccess = {
  open: true,
  allows: async () => true,
  require: async () => {},
  namespaces: async () => 'all',
};
