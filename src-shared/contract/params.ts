import { z } from 'zod';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../kube/kinds';
import { isDnsLabel, isDnsSubdomain, isPathSegmentName, validateResourceName } from '../kube/names';
import { parseSelector } from '../kube/selector';

/** Reusable validated pieces of paths and queries. Messages are written for the person reading the 400. */

/**
 * How a URL parameter reads in the API document when its rules live in a transform or a refine,
 * which JSON Schema cannot read: this JSON Schema replaces the generated one (openapi/document.ts).
 * Values in a URL are text; `integer` and `boolean` say which text is accepted.
 */
export const documented = <T extends z.ZodType>(schema: T, param: Record<string, unknown>): T =>
  schema.meta({ param });

export const MAX_PAGE_LIMIT = 1000;
export const DEFAULT_PAGE_LIMIT = 20;

export const wholeNumber = (name: string, min: number, max: number, fallback: number) =>
  documented(wholeNumberText(name, min, max, fallback), {
    type: 'integer',
    minimum: min,
    maximum: max,
    default: fallback,
  });

const wholeNumberText = (name: string, min: number, max: number, fallback: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return fallback;
      if (!/^\d+$/.test(raw)) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      const n = Number(raw);
      if (n < min || n > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from ${min} to ${max}` });
        return z.NEVER;
      }
      return n;
    });

export const pageQuery = {
  limit: wholeNumber('limit', 1, MAX_PAGE_LIMIT, DEFAULT_PAGE_LIMIT),
  offset: wholeNumber('offset', 0, Number.MAX_SAFE_INTEGER, 0),
};

/**
 * A list snapshot token, as every `Link` of a cluster list carries it: the pages of one walk are
 * cut from one pinned snapshot, so nothing is skipped or repeated while the cluster changes.
 */
export const snapshotParam = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,64}$/, 'snapshot must be the token a Link header carried')
  .meta({
    description:
      'The token every Link of a cluster list carries: the pages of one walk come from one pinned snapshot. 410 snapshot_expired once it is no longer kept.',
  })
  .optional();

export const idParam = (what: string) =>
  z
    .string()
    .regex(/^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$/, `${what} must be a lower-case slug (a-z, 0-9, '-')`);

export const labelSelectorParam = documented(
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const parsed = parseSelector(raw);
      if (!parsed.ok) {
        ctx.addIssue({
          code: 'custom',
          message: `invalid labelSelector requirement "${parsed.requirement}": ${parsed.message}`,
          params: { problemCode: 'invalid_label_selector', requirement: parsed.requirement },
        });
        return z.NEVER;
      }
      return { text: raw, selector: parsed.selector };
    }),
  {
    type: 'string',
    description:
      'A Kubernetes label selector: `=`, `==`, `!=`, `in (…)`, `notin (…)`, `key`, `!key`, comma-combined. 400 invalid_label_selector names the offending requirement.',
    examples: ['app=checkout,tier in (web,api)'],
  },
);

/**
 * A resourceType as text: which kinds it may name depends on the cluster (its discovery), so the
 * edge checks only that it is a kind's name, `singular` or `singular.group`, and the handler
 * resolves it against the cluster (src-main/service/clusters/resolve-kind.ts).
 */
// Spelt out in both cases rather than with the `i` flag: JSON Schema patterns take no flags.
const KIND_NAME = /^[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?(\.[A-Za-z0-9]([-A-Za-z0-9]*[A-Za-z0-9])?)*$/;
const KIND_NAME_MAX = 317;

const resourceTypeParam = (description: string) =>
  documented(
    z.string().refine((raw) => raw.length <= KIND_NAME_MAX && KIND_NAME.test(raw), {
      error: (issue) =>
        `resourceType "${String(issue.input)}" is no kind name: a lower-case singular such as pod or configmap, or singular.group such as certificate.cert-manager.io`,
      params: { problemCode: 'invalid_resource_type' },
    }),
    {
      type: 'string',
      pattern: KIND_NAME.source,
      maxLength: KIND_NAME_MAX,
      description,
      examples: ['pod', 'configmap', 'certificate.cert-manager.io'],
    },
  );

const TYPE_RULES =
  'Case does not matter. `singular.group` (`ingress.networking.k8s.io`) is accepted for every kind and required where two served groups share the singular. A plural or short name is refused (400 invalid_resource_type) with the canonical name as `hint`; a singular two groups share is refused naming both qualified forms; `event` is refused pointing at the kubernetes-events endpoint.';

export const anyResourceType = () =>
  resourceTypeParam(
    `Any kind the cluster serves that can be listed and watched (GET …/kinds), by its resourceType: the lower-case singular, e.g. configmap, ingress, horizontalpodautoscaler, or the nine tailored kinds ${RESOURCE_TYPES.join(', ')}. ${TYPE_RULES}`,
  );
export const namespacedResourceType = () =>
  resourceTypeParam(
    `Any namespaced kind the cluster serves that can be listed and watched (GET …/kinds), by its resourceType: the lower-case singular, e.g. configmap, ingress, or the tailored ${RESOURCE_TYPES.filter((t) => RESOURCE_KINDS[t].namespaced).join(', ')}. A cluster-scoped kind is refused here. ${TYPE_RULES}`,
  );

const DNS_LABEL = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$';
const DNS_SUBDOMAIN = '^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$';

export const namespaceParam = z
  .string()
  .refine(isDnsLabel, {
    message: 'namespace must be a DNS-1123 label (lower-case alphanumerics and "-", at most 63 characters)',
    params: { problemCode: 'invalid_name' },
  })
  .meta({ pattern: DNS_LABEL, maxLength: 63 });

export const resourceNameParam = z
  .string()
  .refine(isDnsSubdomain, {
    message:
      'resourceName must be a DNS-1123 subdomain (lower-case alphanumerics, "-" and ".", at most 253 characters)',
    params: { problemCode: 'invalid_name' },
  })
  .meta({
    pattern: DNS_SUBDOMAIN,
    maxLength: 253,
    description: 'A DNS-1123 subdomain; some kinds are stricter (a service name is a DNS-1035 label).',
  });

/**
 * An object's name as endpoints 2 and 4 take it: what the apiserver accepts of any kind (a path
 * segment: RBAC names such as `system:controller:job-controller` are no DNS names), the rule of
 * its kind checked by checkNameForKind.
 */
export const objectNameParam = z
  .string()
  .refine(isPathSegmentName, {
    message: 'resourceName must be an object name: 1 to 253 characters, no "/" or "%", and not "." or ".."',
    params: { problemCode: 'invalid_name' },
  })
  .meta({
    maxLength: 253,
    description:
      "The object's name, by the rule of its kind: a DNS-1123 subdomain for most; a service name is a DNS-1035 label, a namespace a DNS-1123 label; a role, binding, CertificateSigningRequest, flow-control object or APIService any text without '/' or '%' but '.' and '..'.",
  });

/** The kind a resourceType text names for its name rule: a tailored kind's bare or qualified name. */
function nameRuleOf(resourceType: string): string {
  const t = resourceType.toLowerCase();
  const tailored = RESOURCE_TYPES.find((k) => t === `${k}.${RESOURCE_KINDS[k].group}`);
  return tailored ?? t;
}

/** Names follow the rule of their kind (a service name is a DNS-1035 label, a node's a subdomain...). */
export function checkNameForKind(p: { resourceType: string; resourceName: string }, ctx: z.RefinementCtx) {
  const message = validateResourceName(nameRuleOf(p.resourceType), p.resourceName);
  if (message) {
    ctx.addIssue({
      code: 'custom',
      path: ['resourceName'],
      message,
      params: { problemCode: 'invalid_name' },
    });
  }
}

export const booleanParam = (name: string) => documented(booleanText(name), { type: 'boolean' });

const booleanText = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined) return undefined;
      if (raw === 'true') return true;
      if (raw === 'false') return false;
      ctx.addIssue({ code: 'custom', message: `${name} must be true or false` });
      return z.NEVER;
    });
