import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { type BenchService, listAll } from './bench-service';

import { ms, percentile, table } from './stats';

export interface PageCase {
  name: string;
  path: string;
  p50: number;
  p99: number;
  max: number;
  total: number;
  /** The service's own CPU time per request: its work, whatever else the machine is doing. */
  cpuMsPerRequest: number;
}

interface EventRow {
  eventId: string;
  type: string;
  involvedObject: { namespace?: string };
}
interface PodRow {
  resource: { metadata: { uid: string; labels?: Record<string, string> } };
}

const PAGE = 100;

function mostCommon(values: Iterable<string | undefined>): [string, number] {
  const counts = new Map<string, number>();
  for (const v of values) if (v !== undefined && v !== '') counts.set(v, (counts.get(v) ?? 0) + 1);
  const best = [...counts].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))[0];
  if (!best) throw new Error('no values to pick the most common from');
  return best;
}

interface Plan {
  name: string;
  path: string;
  offset: number;
  /** Ids of every matching item in list order: the page must be exactly its slice. */
  matching: string[];
  idOf: (row: unknown) => string;
}

const eventId = (row: unknown) => (row as EventRow).eventId;
const podUid = (row: unknown) => (row as PodRow).resource.metadata.uid;

/**
 * Section 2's figure: pages of 100 events at shallow and deep offsets, with and without the
 * filters the UI uses, and a label-selected pod page. Each case: `warmup` requests, then
 * `requests` sequential ones over one kept-alive connection, timed to the last byte of the body.
 * Every answer is checked against the full lists (status 200, x-Total, and exactly the expected
 * items in order), so a fast wrong answer cannot pass.
 */
export async function benchPages(
  service: BenchService,
  requests: number,
  warmup: number,
): Promise<PageCase[]> {
  // The bench's own young generation fills with each answer it reads (250 KB for a page of pods),
  // and a scavenge that lands inside a timed request was counted as the service's latency: the
  // pod pages' p99 was 12-28 ms with a median under 1 ms. A scavenge before each request, outside
  // the timed window, keeps the client's garbage out of the figure (p99 then 1.3-4.1 ms). The flag
  // is set here, not when the module loads, so the sections that do not time pages run as before
  // (set at load, it changed the log viewer's renderer peak from about 345 to 800 MiB).
  setFlagsFromString('--expose-gc');
  const clientGc = runInNewContext('gc') as (options?: { type: 'minor' | 'major' }) => void;
  setFlagsFromString('--no-expose-gc');
  const events = await listAll<EventRow>(service, `${service.cluster}/kubernetes-events`);
  const pods = await listAll<PodRow>(service, `${service.cluster}/kubernetes-proxy/pod`);
  const [busyNs] = mostCommon(events.map((e) => e.involvedObject.namespace));
  const [app] = mostCommon(pods.map((p) => p.resource.metadata.labels?.app));
  const ev = `${service.cluster}/kubernetes-events`;
  const allEvents = events.map((e) => e.eventId);
  const warnings = events.filter((e) => e.type === 'WARNING').map((e) => e.eventId);
  const inBusyNs = events.filter((e) => e.involvedObject.namespace === busyNs).map((e) => e.eventId);
  const withApp = pods
    .filter((p) => p.resource.metadata.labels?.app === app)
    .map((p) => p.resource.metadata.uid);
  const podPath = `${service.cluster}/kubernetes-proxy/pod?labelSelector=${encodeURIComponent(`app=${app}`)}`;
  const deep = (ids: string[]) => Math.max(0, ids.length - PAGE);
  const plan: Plan[] = [
    { name: 'events', path: ev, offset: 0, matching: allEvents, idOf: eventId },
    {
      name: 'events',
      path: ev,
      offset: Math.floor(allEvents.length / 2),
      matching: allEvents,
      idOf: eventId,
    },
    { name: 'events', path: ev, offset: deep(allEvents), matching: allEvents, idOf: eventId },
    { name: 'events type=WARNING', path: `${ev}?type=WARNING`, offset: 0, matching: warnings, idOf: eventId },
    {
      name: 'events type=WARNING',
      path: `${ev}?type=WARNING`,
      offset: deep(warnings),
      matching: warnings,
      idOf: eventId,
    },
    {
      name: `events namespace=${busyNs}`,
      path: `${ev}?namespace=${busyNs}`,
      offset: 0,
      matching: inBusyNs,
      idOf: eventId,
    },
    {
      name: `events namespace=${busyNs}`,
      path: `${ev}?namespace=${busyNs}`,
      offset: deep(inBusyNs),
      matching: inBusyNs,
      idOf: eventId,
    },
    // The event history: every event is recorded, so the history's page equals the live one here;
    // it is read from SQLite (the first request waits for the recorder to write all of them).
    ...[0, Math.floor(allEvents.length / 2), deep(allEvents)].map((offset) => ({
      name: 'events includeExpired=true',
      path: `${ev}?includeExpired=true`,
      offset,
      matching: allEvents,
      idOf: eventId,
    })),
    { name: `pods app=${app}`, path: podPath, offset: 0, matching: withApp, idOf: podUid },
    { name: `pods app=${app}`, path: podPath, offset: deep(withApp), matching: withApp, idOf: podUid },
  ];
  const counts = `${events.length.toLocaleString('en-US')} events and ${pods.length.toLocaleString('en-US')} pods`;
  events.length = 0;
  pods.length = 0;
  // A filter that matches a page or less has no deep offset to measure.
  const cases = plan.filter((c, i) => c.offset > 0 || plan.findIndex((o) => o.path === c.path) === i);

  const results: PageCase[] = [];
  for (const c of cases) {
    const url = `${c.path}${c.path.includes('?') ? '&' : '?'}limit=${PAGE}&offset=${c.offset}`;
    const expected = c.matching.slice(c.offset, c.offset + PAGE).join(',');
    const once = async () => {
      clientGc({ type: 'minor' });
      const t = performance.now();
      const res = await service.get(url);
      const elapsed = performance.now() - t;
      const got = res.status === 200 ? (JSON.parse(res.text) as unknown[]).map(c.idOf).join(',') : '';
      if (res.status !== 200 || res.headers['x-total'] !== String(c.matching.length) || got !== expected)
        throw new Error(
          `${url}: status ${res.status}, x-Total ${res.headers['x-total']} (expected ${c.matching.length}), ${got === expected ? 'the expected items' : 'other items than the full list has there'}`,
        );
      return elapsed;
    };
    for (let i = 0; i < warmup; i++) await once();
    const times: number[] = [];
    const cpu0 = service.svc.cpuSeconds();
    for (let i = 0; i < requests; i++) times.push(await once());
    const cpuMsPerRequest = ((service.svc.cpuSeconds() - cpu0) * 1000) / requests;
    results.push({
      name: `${c.name}, offset ${c.offset}`,
      path: url,
      p50: percentile(times, 50),
      p99: percentile(times, 99),
      max: Math.max(...times),
      total: c.matching.length,
      cpuMsPerRequest,
    });
  }
  console.log(
    `\nPages of ${PAGE} with ${counts} cached (${requests} sequential requests per row after ${warmup} warm-up, one kept-alive connection, timed to the last byte)\n`,
  );
  console.log(
    table(
      results.map((r) => ({
        page: r.name,
        matching: r.total.toLocaleString('en-US'),
        p50: ms(r.p50),
        p99: ms(r.p99),
        max: ms(r.max),
        'service CPU per request': ms(r.cpuMsPerRequest),
      })),
    ),
  );
  return results;
}
