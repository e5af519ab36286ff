/**
 * The one range every time parameter of the API is held to (`since`, `until` of the events, the
 * timeline, the groups, the watch, the logs and the activity log), decided here so that no value
 * the contract accepts can become an invalid Date further in (`RangeError: Invalid time value`,
 * a 500). Rules:
 * - an instant lies within RFC 3339's years: 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z,
 *   however it was written (a date, a date-time with any zone, an epoch number);
 * - a duration counts back at most 100 years (36500d): further back than any cluster's data;
 * - a clock a duration counts back from (now, or a snapshot's takenAt) is kept where every
 *   accepted duration still lands in the instant range (`durationClock`).
 * A refusal names the parameter and the accepted range.
 */
import { z } from 'zod';

/** 0000-01-01T00:00:00.000Z */
export const MIN_INSTANT_MS = -62_167_219_200_000;
/** 9999-12-31T23:59:59.999Z */
export const MAX_INSTANT_MS = 253_402_300_799_999;
export const MAX_DURATION_DAYS = 36_500;
export const MAX_DURATION_MS = MAX_DURATION_DAYS * 86_400_000;

export const INSTANT_RANGE = 'from 0000-01-01T00:00:00Z to 9999-12-31T23:59:59.999Z';
export const DURATION_RANGE = `at most ${MAX_DURATION_DAYS}d (100 years)`;

/** Why an instant (epoch ms, NaN for text that is no time) is refused, or undefined when it is not. */
export function instantRefusal(name: string, ms: number): string | undefined {
  return ms >= MIN_INSTANT_MS && ms <= MAX_INSTANT_MS
    ? undefined
    : `${name} must be an instant ${INSTANT_RANGE}`;
}

/** Why a duration (ms; digits too many to count make it Infinity) is refused, or undefined. */
export function durationRefusal(name: string, ms: number): string | undefined {
  return ms >= 0 && ms <= MAX_DURATION_MS ? undefined : `${name} must be a duration of ${DURATION_RANGE}`;
}

/**
 * A clock durations count back from (epoch ms), moved into the range where `clock - MAX_DURATION_MS`
 * is still an accepted instant. Only a clock outside it moves: a snapshot claiming to be from the
 * year 50 or 275760.
 */
export function durationClock(ms: number): number {
  return Math.min(Math.max(ms, MIN_INSTANT_MS + MAX_DURATION_MS), MAX_INSTANT_MS);
}

/** In a zod transform: `value`, or, with a refusal, that refusal as the value's issue. */
export function unlessRefused<T>(ctx: z.RefinementCtx, refusal: string | undefined, value: T): T {
  if (refusal === undefined) return value;
  ctx.addIssue({ code: 'custom', message: refusal });
  return z.NEVER;
}
