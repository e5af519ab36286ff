/**
 * The words of "Changed before it started failing": one sentence per recorded change, e.g.
 * "Deployment checkout: image app 1.4.1 → 1.4.2 at 02:07, 3 min before the first BackOff at 02:10".
 * Rules: pure; local time to the minute (the window counts minutes); a change recorded in the
 * grace just after the onset reads "at the time of"; the onset is named by the signal that set it.
 */
import type { ChangeBefore, Diagnosis } from '../../../src-shared/contract/diagnosis-operations';

const two = (n: number) => String(n).padStart(2, '0');

/** `02:07`, local time; the text as it came when it is not a time. */
export function clockText(iso: string): string {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${two(t.getHours())}:${two(t.getMinutes())}`;
}

const ONSET_WORDS: Record<string, string> = {
  FirstBackOff: 'the first BackOff',
  FirstRestart: 'the first restart',
  LastRestart: 'the last restart',
  FirstWarning: 'the first Warning event',
  ConditionTransition: 'the condition changed',
  Created: 'it was created',
  OnsetUnknown: 'now',
};

/** What the onset was: "the first BackOff at 02:10". */
export function onsetText(d: Pick<Diagnosis, 'onset' | 'signals'>): string {
  const signal = d.signals.find((s) => s.onset);
  const what = (signal && ONSET_WORDS[signal.type]) ?? 'the failure started';
  return d.onset ? `${what} at ${clockText(d.onset)}` : what;
}

/** How long before the onset: "3 min before", "less than a minute before", "at the time of". */
export function beforeText(ms: number): string {
  if (ms < 0) return 'at the time of';
  const minutes = Math.floor(ms / 60_000);
  if (minutes < 1) return 'less than a minute before';
  if (minutes < 120) return `${minutes} min before`;
  return `${Math.floor(minutes / 60)} h ${minutes % 60} min before`;
}

export function changeSentence(c: ChangeBefore, onset: string): string {
  return `${c.ref.kind} ${c.ref.name}: ${c.summary} at ${clockText(c.time)}, ${beforeText(c.beforeOnsetMs)} ${onset}`;
}
