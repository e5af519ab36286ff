import { z } from 'zod';
import { ApiError } from '../../api/client';

/**
 * A 403 `forbidden` from `--authorize rbac` (the cluster's RBAC said no) put in words a person can
 * act on: what they may not do, where, and whom to ask. The problem's `permission` member is
 * validated here, at the edge: the code `forbidden` is also used for refusals that name no
 * permission (a wrong current password), and those keep the service's own detail. Pure, so the
 * wording is tested without a view.
 */

const name = z.string().min(1).max(253);

const permission = z.object({
  verb: name,
  group: z.string().max(253),
  resource: name,
  subresource: name.optional(),
  namespace: name.optional(),
  name: name.optional(),
});
export type Permission = z.infer<typeof permission>;

const forbiddenProblem = z.object({ code: z.literal('forbidden'), permission });

/** The permission a 403 says is missing; undefined for anything else. */
export function forbiddenOf(err: unknown): Permission | undefined {
  if (!(err instanceof ApiError) || err.problem.status !== 403) return undefined;
  const parsed = forbiddenProblem.safeParse(err.problem);
  return parsed.success ? parsed.data.permission : undefined;
}

/** Kubernetes verbs as a sentence says them; others (create, patch…) are already words. */
const VERB_WORDS: Readonly<Record<string, string>> = { get: 'read', list: 'list', watch: 'watch' };

/** "list pods", "read the logs of pods "web-1"", "list deployments (API group apps)". */
function action(p: Permission): string {
  const verb = VERB_WORDS[p.verb] ?? p.verb;
  const group = p.group === '' ? '' : ` (API group ${p.group})`;
  const named = p.name === undefined ? '' : ` "${p.name}"`;
  if (p.subresource === 'log') return `${verb} the logs of ${p.resource}${named}${group}`;
  const what = p.subresource ? `${p.resource}/${p.subresource}` : p.resource;
  return `${verb} ${what}${named}${group}`;
}

/**
 * "You don't have permission to list pods in namespace kube-system. Ask a cluster administrator
 * for a Role that grants it." A permission at the cluster scope needs a ClusterRole, so it says that.
 */
export function forbiddenSentence(p: Permission): string {
  return p.namespace === undefined
    ? `You don't have permission to ${action(p)} at the cluster scope. Ask a cluster administrator for a ClusterRole that grants it.`
    : `You don't have permission to ${action(p)} in namespace ${p.namespace}. Ask a cluster administrator for a Role that grants it.`;
}
