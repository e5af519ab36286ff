/**
 * One SubjectAccessReview: asks the cluster whether a subject may do something, through the
 * cluster's own client (Skiff's service account or kubeconfig user, which needs `create
 * subjectaccessreviews`). Rules:
 * - The answer is `status.allowed`, checked with zod; anything else is no answer.
 * - No answer (the cluster unreachable or slow, the review refused to Skiff's own account, a body
 *   that is not a review) is a 503 `authorization_unavailable` naming why: never taken as allowed.
 * - It is bounded by the cluster's timeout and by no caller's signal: callers share it (decisions.ts).
 */
import { z } from 'zod';
import { ProblemError } from '../../errors';
import { type KubeClient, KubeRequestError } from '../../kube/kube-client';
import type { ResourceAttributes } from './access';
import type { KubeSubject } from './subject';

export const SAR_PATH = '/apis/authorization.k8s.io/v1/subjectaccessreviews';

const reviewAnswer = z.object({ status: z.object({ allowed: z.boolean() }) });

export function reviewBody(subject: KubeSubject, attrs: ResourceAttributes) {
  return {
    apiVersion: 'authorization.k8s.io/v1',
    kind: 'SubjectAccessReview',
    spec: {
      user: subject.user,
      groups: [...subject.groups],
      // Absent attributes are left out of the JSON (undefined is not serialised).
      resourceAttributes: {
        verb: attrs.verb,
        group: attrs.group,
        resource: attrs.resource,
        subresource: attrs.subresource,
        namespace: attrs.namespace,
        name: attrs.name,
      },
    },
  };
}

export async function review(
  client: KubeClient,
  subject: KubeSubject,
  attrs: ResourceAttributes,
  timeoutMs: number,
): Promise<boolean> {
  let answer: unknown;
  try {
    answer = await client.postJson(SAR_PATH, reviewBody(subject, attrs), { timeoutMs });
  } catch (err) {
    const why =
      err instanceof KubeRequestError
        ? `the cluster refused Skiff's SubjectAccessReview (${err.statusCode}: ${err.message}); Skiff's own account needs "create" on subjectaccessreviews.authorization.k8s.io`
        : `the cluster did not answer Skiff's SubjectAccessReview: ${(err as Error).message}`;
    throw new ProblemError('authorization_unavailable', `cannot check access: ${why}`);
  }
  const parsed = reviewAnswer.safeParse(answer);
  if (!parsed.success) {
    throw new ProblemError(
      'authorization_unavailable',
      'cannot check access: the cluster answered the SubjectAccessReview without status.allowed',
    );
  }
  return parsed.data.status.allowed;
}
