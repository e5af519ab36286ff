/**
 * The History tab's moments: a recorded change's time as a person reads it, and the instant just
 * before one (what `?at=` asks for to get the version a change replaced). Rules: pure; local time,
 * to the second (changes a few seconds apart must read apart; to the millisecond when asked, for
 * changes within one second), with the date when not today; a
 * value that is not a time is shown as it came, never as a wrong time.
 */

const two = (n: number) => String(n).padStart(2, '0');

/**
 * `02:07:13` today, `2026-11-27 02:07:13` on another day (local time); `precise` adds the
 * milliseconds (`02:07:13.250`), for moments that would otherwise read the same.
 */
export function momentText(iso: string, now: Date = new Date(), precise = false): string {
  const t = new Date(iso);
  if (Number.isNaN(t.getTime())) return iso;
  const ms = precise ? `.${String(t.getMilliseconds()).padStart(3, '0')}` : '';
  const hms = `${two(t.getHours())}:${two(t.getMinutes())}:${two(t.getSeconds())}${ms}`;
  const sameDay =
    t.getFullYear() === now.getFullYear() && t.getMonth() === now.getMonth() && t.getDate() === now.getDate();
  return sameDay ? hms : `${t.getFullYear()}-${two(t.getMonth() + 1)}-${two(t.getDate())} ${hms}`;
}

/**
 * The instant 1 ms before `iso` (RFC 3339, UTC): the object at it is the version the change at
 * `iso` replaced, as recorded times are whole milliseconds. Undefined for a value that is not a time.
 */
export function justBefore(iso: string): string | undefined {
  const t = Date.parse(iso);
  return Number.isNaN(t) ? undefined : new Date(t - 1).toISOString();
}
