import { z } from 'zod';
import { booleanParam, documented, namespaceParam } from './params';
import { DURATION_RANGE, durationRefusal, INSTANT_RANGE, instantRefusal, unlessRefused } from './time-range';

/** Filters of the event list. Every filter is optional and they combine with AND. */

const DURATION = /^(\d+)(s|m|h|d)$/;
const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/**
 * `since` and `until` take an ISO 8601 instant or a duration back from now (30s, 15m, 2h, 7d); on a
 * snapshot cluster a duration counts back from its takenAt (service/events/clock.ts). Both are
 * held to the API's time range (time-range.ts), so a resolved value is always a valid Date.
 */
const instantParam = (name: string) =>
  documented(instantText(name), {
    type: 'string',
    description: `${name}: an ISO 8601 instant ${INSTANT_RANGE}, or a duration back from now (30s, 15m, 2h, 7d) of ${DURATION_RANGE}; on a snapshot cluster, back from its takenAt.`,
    examples: ['15m', '2026-01-31T12:00:00Z'],
  });

const instantText = (name: string) =>
  z
    .string()
    .optional()
    .transform((raw, ctx): { instant: number } | { durationMs: number } | undefined => {
      if (raw === undefined) return undefined;
      const d = DURATION.exec(raw);
      if (d) {
        const durationMs = Number(d[1]) * UNIT_MS[d[2] as keyof typeof UNIT_MS];
        return unlessRefused(ctx, durationRefusal(name, durationMs), { durationMs });
      }
      const isoLike = /^\d{4}-\d{2}-\d{2}(T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2}))?$/;
      const t = Date.parse(raw);
      if (!isoLike.test(raw) || Number.isNaN(t)) {
        ctx.addIssue({
          code: 'custom',
          message: `${name} must be an ISO 8601 instant (2026-01-31T12:00:00Z) or a duration such as 30s, 15m, 2h, 7d`,
        });
        return z.NEVER;
      }
      return unlessRefused(ctx, instantRefusal(name, t), { instant: t });
    });

export const sinceParam = instantParam('since');
/** The end of the time range (inclusive): events whose lastTimestamp is after it are left out. */
export const untilParam = instantParam('until');

export const eventsQuery = {
  type: documented(
    z
      .string()
      .optional()
      .transform((raw, ctx) => {
        if (raw === undefined) return undefined;
        const upper = raw.toUpperCase();
        if (upper === 'NORMAL' || upper === 'WARNING') return upper;
        ctx.addIssue({ code: 'custom', message: 'type must be NORMAL or WARNING' });
        return z.NEVER;
      }),
    { type: 'string', description: 'NORMAL or WARNING, in any case.', examples: ['WARNING'] },
  ),
  reason: z.string().min(1).max(128).optional(),
  namespace: namespaceParam.optional(),
  kind: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9]{0,62}$/, 'kind must be a Kubernetes kind such as Pod')
    .optional(),
  name: z.string().min(1).max(253).optional(),
  since: sinceParam,
  until: untilParam,
  /** true adds the recorded events the cluster no longer has (see the event history). */
  includeExpired: booleanParam('includeExpired'),
};
