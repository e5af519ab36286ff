#!/usr/bin/env node
// Follows a cluster's event watch and prints each new warning with its explanation from
// /v1/guidance/{reason}, like `kubectl get events --watch --field-selector type=Warning` with a
// troubleshooting note under each line. Node 24, no dependencies.
//
//   SKIFF_API_KEY=… node docs/scripts/watch-warnings.mjs [clusterId]
//
// SKIFF_URL (default http://127.0.0.1:7733), SKIFF_WORKSPACE (default "default"), the cluster as
// the argument or SKIFF_CLUSTER (default "demo"). It reads the NDJSON framing of
// GET …/kubernetes-events?watch=true, starts at the end of the feed (sendInitialEvents=false, so
// only warnings from now on), and when the connection breaks it reconnects with the last id it
// saw (lastEventId), so nothing is printed twice and nothing is missed. Ctrl-C ends it.

const base = process.env.SKIFF_URL ?? 'http://127.0.0.1:7733';
const workspace = process.env.SKIFF_WORKSPACE ?? 'default';
const cluster = process.argv[2] ?? process.env.SKIFF_CLUSTER ?? 'demo';
const apiKey = process.env.SKIFF_API_KEY;
if (!apiKey) {
  console.error('set SKIFF_API_KEY to an API key (Security view, or POST /v1/auth/api-keys)');
  process.exit(2);
}
const headers = { 'X-API-Key': apiKey };

/** Explanations by reason; null when the knowledge base has none. */
const explained = new Map();
async function explanation(reason) {
  if (!explained.has(reason)) {
    const res = await fetch(`${base}/v1/guidance/${encodeURIComponent(reason)}?subject=event-reason`, {
      headers,
    });
    explained.set(reason, res.ok ? await res.json() : null);
  }
  return explained.get(reason);
}

async function print(change) {
  const e = change.event;
  const o = e.involvedObject;
  const where = o.namespace ? `${o.namespace}/${o.kind}/${o.name}` : `${o.kind}/${o.name}`;
  const again = change.type === 'MODIFIED' ? ` (x${e.count})` : '';
  console.log(`${e.lastTimestamp}  ${e.reason}${again}  ${where}: ${e.message}`);
  const g = await explanation(e.reason);
  if (g) {
    console.log(`    ${g.title}: ${g.meaning}`);
    if (g.checks[0]) console.log(`    check first: ${g.checks[0].text}`);
  } else console.log('    (no explanation for this reason)');
}

let lastEventId;
for (let attempt = 0; ; attempt++) {
  const url = new URL(`${base}/v1/workspaces/${workspace}/observability/${cluster}/kubernetes-events`);
  url.searchParams.set('watch', 'true');
  url.searchParams.set('type', 'WARNING');
  if (lastEventId) url.searchParams.set('lastEventId', lastEventId);
  else url.searchParams.set('sendInitialEvents', 'false');
  let res;
  try {
    res = await fetch(url, { headers: { ...headers, Accept: 'application/x-ndjson' } });
  } catch (err) {
    console.error(`the service did not answer (${err.cause?.code ?? err.message}); retrying`);
    await new Promise((r) => setTimeout(r, Math.min(30_000, 1_000 * 2 ** attempt)));
    continue;
  }
  if (!res.ok) {
    const problem = await res.json().catch(() => ({}));
    console.error(`${res.status} ${problem.code ?? ''}: ${problem.detail ?? res.statusText}`);
    // A refused credential or a bad request will not get better by asking again.
    if (res.status < 500 && res.status !== 429) process.exit(1);
    await new Promise((r) => setTimeout(r, 5_000));
    continue;
  }
  attempt = 0;
  const decoder = new TextDecoder();
  let buffered = '';
  let stop;
  for await (const bytes of res.body) {
    buffered += decoder.decode(bytes, { stream: true });
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) {
      if (line === '') continue;
      const r = JSON.parse(line);
      if (r.id) lastEventId = r.id;
      // Changes carry an id; the state replayed after a RESET does not, and is not news.
      if ((r.type === 'ADDED' || r.type === 'MODIFIED') && r.id) await print(r);
      else if (r.type === 'STATUS')
        console.error(r.stale ? `the cluster is unreachable since ${r.staleSince}` : 'the cluster is back');
      else if (r.type === 'ERROR') {
        console.error(`the watch ended: ${r.problem.code}: ${r.problem.detail}`);
        stop = r.problem.status === 401 || r.problem.status === 403;
      }
    }
  }
  if (stop) process.exit(1);
}
