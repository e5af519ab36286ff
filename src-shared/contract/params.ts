import { z } from 'zod';
import { RESOURCE_TYPES, type ResourceKindInfo, resolveResourceType } from '../kube/kinds';
import { isDnsLabel, isDnsSubdomain, validateResourceName } from '../kube/names';
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

const resourceTypeParam = (accepted: readonly string[], scope: string) =>
  documented(resourceTypeText(accepted, scope), {
    type: 'string',
    description: `The singular kind, case-insensitive: ${accepted.join(', ')}.`,
    examples: ['pod'],
  });

const resourceTypeText = (accepted: readonly string[], scope: string) =>
  z.string().transform((raw, ctx): ResourceKindInfo => {
    const resolved = resolveResourceType(raw);
    if (resolved.ok && accepted.includes(resolved.info.singular)) return resolved.info;
    const list = accepted.join(', ');
    const hint = resolved.ok ? undefined : resolved.hint;
    const message = resolved.ok
      ? `resourceType "${raw}" is cluster-scoped and cannot be used ${scope}; accepted values: ${list}`
      : `unknown resourceType "${raw}"; accepted values: ${list}${hint ? ` (${hint})` : ''}`;
    ctx.addIssue({
      code: 'custom',
      message,
      params: { problemCode: 'invalid_resource_type', accepted, ...(hint ? { hint } : {}) },
    });
    return z.NEVER;
  });

const NAMESPACED_TYPES: readonly string[] = RESOURCE_TYPES.filter((t) => t !== 'node' && t !== 'namespace');

export const anyResourceType = () => resourceTypeParam(RESOURCE_TYPES, '');
export const namespacedResourceType = () =>
  resourceTypeParam(NAMESPACED_TYPES, 'under /namespaces/{namespace}');

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

/** Names follow the rule of their kind (a service name is a DNS-1035 label, a node's a subdomain...). */
export function checkNameForKind(
  p: { resourceType: ResourceKindInfo; resourceName: string },
  ctx: z.RefinementCtx,
) {
  const message = validateResourceName(p.resourceType.singular, p.resourceName);
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
