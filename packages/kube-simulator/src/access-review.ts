/**
 * POST /apis/authorization.k8s.io/v1/subjectaccessreviews: "may this user do this?", answered by
 * the RBAC authorizer (rbac.ts) over the store's roles and bindings, as a Skiff service with
 * `--authorize rbac` asks its cluster. Rules: the answers are the apiserver's (201 with the review
 * and its status; 400 for a body that is not a SubjectAccessReview, 422 Invalid for a spec the
 * apiserver's validation refuses, 413 past 3 MiB); the simulator still answers every other request
 * of an authenticated caller without checking RBAC, as before. Every review answered is counted and
 * the latest kept (AccessReviews), so a test can tell how many checks a client made; the
 * `accessReviewsDown` fault answers 503, as an apiserver whose authorizer is unreachable.
 */

import type { IncomingMessage, ServerResponse } from 'node:http';
import { z } from 'zod';
import { authorize, type NonResourceAttributes, type ResourceAttributes } from './rbac';
import { badRequest, invalid, type Sent, type Status, sendJson, sendStatus, status } from './status';
import type { SimStore } from './store';
import { readBody } from './writes';

export const AUTHORIZATION_GROUP = 'authorization.k8s.io';
const API_VERSION = `${AUTHORIZATION_GROUP}/v1`;
const KIND = 'SubjectAccessReview';
/** How many answered reviews AccessReviews keeps. */
export const RECENT_REVIEWS = 1000;

export interface ReviewRecord {
  user: string;
  groups: string[];
  attributes: ResourceAttributes | NonResourceAttributes;
  allowed: boolean;
}

/** The reviews the simulator answered: a count and the most recent ones, oldest first. */
export class AccessReviews {
  count = 0;
  readonly recent: ReviewRecord[] = [];

  record(review: ReviewRecord): void {
    this.count++;
    this.recent.push(review);
    if (this.recent.length > RECENT_REVIEWS) this.recent.shift();
  }

  reset(): void {
    this.count = 0;
    this.recent.length = 0;
  }
}

const text = z.string().optional();
const reviewSchema = z.object({
  apiVersion: text,
  kind: text,
  metadata: z.record(z.string(), z.unknown()).optional(),
  spec: z
    .object({
      resourceAttributes: z
        .object({
          namespace: text,
          verb: text,
          group: text,
          version: text,
          resource: text,
          subresource: text,
          name: text,
        })
        .optional(),
      nonResourceAttributes: z.object({ path: text, verb: text }).optional(),
      user: text,
      groups: z.array(z.string()).optional(),
      uid: text,
      extra: z.record(z.string(), z.array(z.string())).optional(),
    })
    .optional(),
});

type Spec = NonNullable<z.infer<typeof reviewSchema>['spec']>;

export type ParsedReview =
  | {
      ok: true;
      spec: Spec;
      user: string;
      groups: string[];
      attributes: ResourceAttributes | NonResourceAttributes;
    }
  | { ok: false; status: Status };

/** A request body as the apiserver decodes and validates a SubjectAccessReview. */
export function parseReview(body: string): ParsedReview {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch (err) {
    return {
      ok: false,
      status: badRequest(`the body of the request was in an unknown format: ${String(err)}`),
    };
  }
  const parsed = reviewSchema.safeParse(json);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.') || 'body'}: ${i.message}`);
    return {
      ok: false,
      status: badRequest(`${KIND} in version "v1" cannot be handled as a ${KIND}: ${problems.join('; ')}`),
    };
  }
  const { apiVersion, kind, spec = {} } = parsed.data;
  // A body may leave apiVersion and kind out (the path names them), but not name others.
  if ((apiVersion ?? API_VERSION) !== API_VERSION || (kind ?? KIND) !== KIND) {
    return {
      ok: false,
      status: badRequest(
        `the API version in the data (${apiVersion}) and kind (${kind}) do not match the expected ${API_VERSION} ${KIND}`,
      ),
    };
  }
  const causes: { field: string; message: string }[] = [];
  const ra = spec.resourceAttributes;
  const nra = spec.nonResourceAttributes;
  if (ra && nra)
    causes.push({
      field: 'spec.nonResourceAttributes',
      message: 'cannot be specified in combination with resourceAttributes',
    });
  if (!ra && !nra)
    causes.push({
      field: 'spec.resourceAttributes',
      message: 'exactly one of nonResourceAttributes or resourceAttributes must be specified',
    });
  const user = spec.user ?? '';
  const groups = spec.groups ?? [];
  if (user === '' && groups.length === 0)
    causes.push({ field: 'spec.user', message: 'at least one of user or group must be specified' });
  if (causes.length > 0) return { ok: false, status: invalid(KIND, '', causes) };
  const attributes: ResourceAttributes | NonResourceAttributes = ra
    ? {
        namespace: ra.namespace ?? '',
        verb: ra.verb ?? '',
        group: ra.group ?? '',
        resource: ra.resource ?? '',
        subresource: ra.subresource ?? '',
        name: ra.name ?? '',
      }
    : { path: nra?.path ?? '', verb: nra?.verb ?? '' };
  return { ok: true, spec, user, groups, attributes };
}

export async function reviewAccess(
  req: IncomingMessage,
  res: ServerResponse,
  store: SimStore,
  reviews: AccessReviews,
  down: boolean,
): Promise<Sent> {
  const body = await readBody(req);
  if (body === undefined)
    return sendStatus(res, status(413, 'RequestEntityTooLarge', 'request entity too large'));
  if (down) {
    return sendStatus(
      res,
      status(503, 'ServiceUnavailable', 'the authorizer is unavailable', { retryAfterSeconds: 1 }),
    );
  }
  const review = parseReview(body);
  if (!review.ok) return sendStatus(res, review.status);
  const decision = authorize(store, review, review.attributes);
  reviews.record({
    user: review.user,
    groups: review.groups,
    attributes: review.attributes,
    allowed: decision.allowed,
  });
  return sendJson(res, 201, {
    kind: KIND,
    apiVersion: API_VERSION,
    metadata: { creationTimestamp: null },
    spec: review.spec,
    status: { allowed: decision.allowed, ...(decision.reason ? { reason: decision.reason } : {}) },
  });
}
