import type { Page } from '@playwright/test';

/**
 * Makes the page see the service as it answers while a cluster's watch is broken, without taking
 * the cluster down (the demo cluster runs inside the serve process): list answers gain
 * x-Stale-Since, and the cluster record says unreachable with lastSyncedAt. Set `since` to an RFC
 * 3339 time to turn staleness on, null to turn it off.
 *
 * The service's ETag hashes the headers with the body, so a change of staleness changes it. The
 * doctored answers keep that property: their ETag is the service's with the staleness appended,
 * and a held ETag is handed back to the service (for a real 304) only while the staleness it was
 * issued under still holds. Counting those 304s lets a test check that a revalidated list keeps
 * its staleness.
 */
export interface BrokenWatch {
  since: string | null;
  /** URLs of stale list answers that were 304 Not Modified, in order. */
  notModified: string[];
}

const OBSERVABILITY = /^\/v1\/workspaces\/[^/]+\/observability\//;
const HELD = /^"([^"~]*)(~\d+)?"$/;

export async function fakeBrokenWatch(page: Page): Promise<BrokenWatch> {
  const state: BrokenWatch = { since: null, notModified: [] };
  const stamp = () => (state.since ? `~${Date.parse(state.since)}` : '');

  await page.route(
    (url) => OBSERVABILITY.test(url.pathname),
    async (route) => {
      const request = route.request();
      if (request.method() !== 'GET') return route.continue();
      // The event watch says it is stale in its own stream (STATUS records), which this cannot
      // fake: it is refused, so the events view polls the list as it does while its watch is down.
      if (new URL(request.url()).searchParams.get('watch') === 'true') return route.abort();
      const headers = request.headers();
      const held = headers['if-none-match'];
      const m = held === undefined ? null : HELD.exec(held);
      const doctored = m?.[2] !== undefined;
      if (!state.since && !doctored) return route.continue();
      const { 'if-none-match': _held, ...forward } = headers;
      if (m && (m[2] ?? '') === stamp()) forward['if-none-match'] = `"${m[1]}"`;
      const since = state.since;
      const res = await route.fetch({ headers: forward });
      const out = res.headers();
      const isList = out['x-total'] !== undefined;
      if (since && isList) {
        out['x-stale-since'] = since;
        if (out.etag) out.etag = out.etag.replace(/"$/, `~${Date.parse(since)}"`);
        if (res.status() === 304) state.notModified.push(request.url());
      }
      await route.fulfill({ response: res, headers: out });
    },
  );

  await page.route('**/v1/workspaces/*/clusters?*', async (route) => {
    if (!state.since) return route.continue();
    const since = state.since;
    // A full answer without an ETag, so the page never holds the doctored record once it is fresh.
    const { 'if-none-match': _held, ...headers } = route.request().headers();
    const res = await route.fetch({ headers });
    const body = (await res.json()) as Array<Record<string, unknown>>;
    const { etag: _etag, ...out } = res.headers();
    await route.fulfill({
      status: res.status(),
      headers: out,
      json: body.map((c) => ({ ...c, status: 'unreachable', lastSyncedAt: since })),
    });
  });

  return state;
}

/**
 * What the banner should show for `iso` in `timeZone`, computed with Intl rather than the app's
 * own code: HH:MM, with YYYY-MM-DD in front when it is not today there.
 */
export function shownAs(iso: string, timeZone: string, now: Date = new Date()): string {
  const parts = (d: Date) =>
    Object.fromEntries(
      new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })
        .formatToParts(d)
        .map((p) => [p.type, p.value]),
    );
  const t = parts(new Date(iso));
  const n = parts(now);
  const hm = `${t.hour}:${t.minute}`;
  return t.year === n.year && t.month === n.month && t.day === n.day
    ? hm
    : `${t.year}-${t.month}-${t.day} ${hm}`;
}
