import { z } from 'zod';
import { type ResourceKindInfo, resolveResourceType } from '../kube/kinds';
import { isDnsLabel } from '../kube/names';
import { compileSearch, type LevelSet, MAX_CONTEXT, MAX_PATTERN_LENGTH } from '../logs/index';
import { timeValueToMs } from '../logs/time';
import { LOG_LEVELS, type LogLevel } from '../logs/types';
import { defineOperation, streamBody } from './define';
import { LOG_MEDIA_TYPES, LOG_RESOURCE_TYPES, logRecord, NDJSON } from './log-models';
import { booleanParam, documented, idParam, namespaceParam, resourceNameParam } from './params';
import { DURATION_RANGE, durationRefusal, INSTANT_RANGE, instantRefusal, unlessRefused } from './time-range';

/**
 * The log endpoint, beyond the spec: `GET …/kubernetes-proxy/namespaces/{ns}/pod/{name}/logs`,
 * and the same for a deployment, statefulset, daemonset or job (all its pods, merged by time).
 * Documented in docs/api-logs.md.
 */

/** Refuses absurd values early; the kubelet would otherwise read a whole rotated file. */
export const MAX_TAIL_LINES = 10_000_000;

const DURATION = /^(?:\d+(?:ms|s|m|h|d))+$/;
const DURATION_PART = /(\d+)(ms|s|m|h|d)/g;
const UNIT_MS = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `since`/`until`: RFC 3339 with a zone, epoch seconds/ms, or a duration before now (`90s`, `1h30m`),
 * held to the API's time range (time-range.ts) so a resolved value is always a valid Date.
 */
const timeParam = (name: string) =>
  documented(timeText(name), {
    type: 'string',
    description: `${name}: an RFC 3339 time with a zone, epoch seconds or milliseconds, ${INSTANT_RANGE}; or a duration before now (90s, 1h30m) of ${DURATION_RANGE}; on a snapshot cluster, before its takenAt.`,
    examples: ['15m', '2026-11-22T10:00:00Z'],
  });

/**
 * An instant, or a duration the operation counts back from its cluster's "now" (a snapshot's is
 * when it was taken), so the contract leaves durations unresolved.
 */
export type LogTime = { instant: number } | { durationMs: number };

const timeText = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): LogTime | undefined => {
      if (raw === undefined || raw === '') return undefined;
      if (DURATION.test(raw)) {
        let ms = 0;
        for (const m of raw.matchAll(DURATION_PART))
          ms += Number(m[1]) * UNIT_MS[m[2] as keyof typeof UNIT_MS];
        return unlessRefused(ctx, durationRefusal(name, ms), { durationMs: ms });
      }
      const ms = timeValueToMs(raw);
      // An epoch number of any size is read (its unit guessed by magnitude), so its range is checked.
      if (ms !== undefined) return unlessRefused(ctx, instantRefusal(name, ms), { instant: ms });
      ctx.addIssue({
        code: 'custom',
        message: `${name} must be an RFC 3339 time with a zone (2026-11-22T10:00:00Z), epoch seconds or milliseconds, or a duration before now such as 15m or 1h30m`,
      });
      return z.NEVER;
    });

const wholeNumber = (name: string, max: number) =>
  documented(wholeNumberText(name, max), { type: 'integer', minimum: 0, maximum: max });

const wholeNumberText = (name: string, max: number) =>
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      if (!/^\d+$/.test(raw) || Number(raw) > max) {
        ctx.addIssue({ code: 'custom', message: `${name} must be a whole number from 0 to ${max}` });
        return z.NEVER;
      }
      return Number(raw);
    });

/**
 * `level=ERROR,WARN` shows those levels and lines without a level (UNKNOWN: continuation lines,
 * stack frames), which stay visible unless hidden; `-LEVEL` hides one (`level=ERROR,-UNKNOWN`,
 * `level=-DEBUG,-TRACE`). Case-insensitive.
 */
const levelParam = documented(
  z
    .string()
    .optional()
    .transform((raw, ctx): LevelSet | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      const shown = new Set<LogLevel>();
      const hidden = new Set<LogLevel>();
      for (const part of raw.split(',')) {
        const word = part.trim().toUpperCase();
        const negated = word.startsWith('-') || word.startsWith('!');
        const name = (negated ? word.slice(1) : word) as LogLevel;
        if (!LOG_LEVELS.includes(name)) {
          ctx.addIssue({
            code: 'custom',
            message: `level "${part.trim()}" is not one of ${LOG_LEVELS.join(', ')} (prefix with - to hide one)`,
          });
          return z.NEVER;
        }
        (negated ? hidden : shown).add(name);
      }
      const set: Partial<Record<LogLevel, boolean>> = {};
      for (const level of LOG_LEVELS) {
        // Only hiding: everything else stays. Otherwise: what was named, plus UNKNOWN unless hidden.
        const visible = shown.size === 0 ? !hidden.has(level) : shown.has(level) || level === 'UNKNOWN';
        set[level] = visible && !hidden.has(level);
      }
      return set;
    }),
  {
    type: 'string',
    description: `Comma-separated levels to show (${LOG_LEVELS.join(', ')}), any case; -LEVEL hides one.`,
    examples: ['ERROR,WARN', 'ERROR,-UNKNOWN'],
  },
);

const searchParam = documented(
  z
    .string()
    .optional()
    .transform((raw, ctx) => {
      if (raw === undefined || raw === '') return undefined;
      if (raw.length > MAX_PATTERN_LENGTH) {
        ctx.addIssue({ code: 'custom', message: `search is longer than ${MAX_PATTERN_LENGTH} characters` });
        return z.NEVER;
      }
      const compiled = compileSearch({ pattern: raw, regex: true, caseSensitive: true });
      if (!compiled.ok) {
        ctx.addIssue({ code: 'custom', message: `search: ${compiled.error}` });
        return z.NEVER;
      }
      return raw;
    }),
  {
    type: 'string',
    maxLength: MAX_PATTERN_LENGTH,
    description: 'A regular expression in RE2 syntax, matched in linear time.',
  },
);

const logResourceType = documented(
  z.string().transform((raw, ctx): ResourceKindInfo => {
    const resolved = resolveResourceType(raw);
    const accepted = LOG_RESOURCE_TYPES as readonly string[];
    if (resolved.ok && accepted.includes(resolved.info.singular)) return resolved.info;
    const hint = resolved.ok ? undefined : resolved.hint;
    ctx.addIssue({
      code: 'custom',
      message: `${resolved.ok ? `a ${resolved.info.singular} has no logs` : `unknown resourceType "${raw}"`}; accepted values: ${accepted.join(', ')}${hint ? ` (${hint})` : ''}`,
      params: { problemCode: 'invalid_resource_type', accepted, ...(hint ? { hint } : {}) },
    });
    return z.NEVER;
  }),
  {
    type: 'string',
    description: `A pod, or a workload whose pods' logs are merged: ${LOG_RESOURCE_TYPES.join(', ')} (any case).`,
    examples: ['pod'],
  },
);

export const logQuery = z.strictObject({
  container: z
    .string()
    .refine(isDnsLabel, { message: 'container must be a DNS-1123 label' })
    .meta({ pattern: '^[a-z0-9]([-a-z0-9]*[a-z0-9])?$', maxLength: 63 })
    .optional(),
  previous: booleanParam('previous'),
  follow: booleanParam('follow'),
  timestamps: booleanParam('timestamps'),
  since: timeParam('since'),
  until: timeParam('until'),
  tailLines: wholeNumber('tailLines', MAX_TAIL_LINES),
  level: levelParam,
  search: searchParam,
  ignoreCase: booleanParam('ignoreCase'),
  context: wholeNumber('context', MAX_CONTEXT),
  /** ndjson: false leaves out `fields`, most of the bytes of a structured line (the viewer does). */
  fields: booleanParam('fields'),
});

export type LogQuery = z.output<typeof logQuery>;
/** What a caller sends: every value a string, as in a URL. */
export type LogQueryInput = z.input<typeof logQuery>;

export const logOperations = {
  getLogs: defineOperation({
    method: 'GET',
    path: '/v1/workspaces/:workspaceId/observability/:clusterId/kubernetes-proxy/namespaces/:namespace/:resourceType/:resourceName/logs',
    summary:
      'Container logs of a pod, or of every pod of a workload merged by time; text/plain or application/x-ndjson, optionally followed.',
    auth: 'credential',
    params: z.strictObject({
      workspaceId: idParam('workspaceId'),
      clusterId: idParam('clusterId'),
      namespace: namespaceParam,
      resourceType: logResourceType,
      resourceName: resourceNameParam,
    }),
    query: logQuery,
    body: z.undefined(),
    result: streamBody(),
    paginated: false,
    streaming: true,
    produces: LOG_MEDIA_TYPES,
    records: { [NDJSON]: logRecord },
  }),
} as const;
