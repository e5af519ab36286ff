/**
 * `--usage-interval` (else $SKIFF_USAGE_INTERVAL): how often recorded clusters' usage is sampled
 * (history/usage/). Rules: the flag wins over the variable; an empty variable is unset; `off`
 * samples nothing; anything but `off` or a duration from 1s to 1h is refused naming the flag.
 */
import { parseUsageInterval, type UsageOptions } from '../service/history/usage/index';

export const USAGE_INTERVAL_RULE =
  '--usage-interval must be off or a duration from 1s to 1h, such as 30s or 5m';

/** The usage options the flag (or variable) gives; undefined when neither is set; throws the rule. */
export function usageArgs(flag: string | undefined, env: string | undefined): UsageOptions | undefined {
  const text = flag ?? (env || undefined);
  if (text === undefined) return undefined;
  const intervalMs = parseUsageInterval(text);
  if (intervalMs === undefined) throw new Error(USAGE_INTERVAL_RULE);
  return { intervalMs };
}
