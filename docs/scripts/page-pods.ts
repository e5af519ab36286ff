/**
 * Every pod of one cluster, page by page along the `Link` header, typed by the API document.
 *
 *   npx openapi-typescript http://127.0.0.1:7733/v1/openapi.json -o docs/scripts/skiff-api.d.ts
 *   SKIFF_API_KEY=… node docs/scripts/page-pods.ts [clusterId]
 *
 * Node 24 runs TypeScript as is (its types are stripped). SKIFF_URL (default
 * http://127.0.0.1:7733), SKIFF_WORKSPACE (default "default"), the cluster as the argument or
 * SKIFF_CLUSTER (default "demo"), PAGE_SIZE (default 100). The walk follows rel="next", whose URL
 * carries the list's snapshot token, so it sees one consistent list however the cluster changes.
 */
import type { paths } from './skiff-api.js';

type ListResources =
  paths['/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-proxy/{resourceType}']['get'];
type Page = ListResources['responses'][200]['content']['application/json'];
type Query = NonNullable<ListResources['parameters']['query']>;
type Problem = ListResources['responses'][400]['content']['application/problem+json'];

const base = process.env.SKIFF_URL ?? 'http://127.0.0.1:7733';
const workspace = process.env.SKIFF_WORKSPACE ?? 'default';
const cluster = process.argv[2] ?? process.env.SKIFF_CLUSTER ?? 'demo';
const apiKey = process.env.SKIFF_API_KEY;
if (!apiKey) throw new Error('set SKIFF_API_KEY to an API key');

const query: Query = { limit: Number(process.env.PAGE_SIZE ?? 100) };
let next: string | undefined =
  `/v1/workspaces/${workspace}/observability/${cluster}/kubernetes-proxy/pod?limit=${query.limit}`;

/** The rel="next" URL of a Link header, if there is one. */
function nextLink(link: string | null): string | undefined {
  for (const part of (link ?? '').split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="next"$/.exec(part.trim());
    if (m) return m[1];
  }
  return undefined;
}

let seen = 0;
let total: string | null = null;
while (next) {
  const res = await fetch(new URL(next, base), { headers: { 'X-API-Key': apiKey } });
  if (!res.ok) {
    const problem = (await res.json()) as Problem;
    throw new Error(`${res.status} ${problem.code}: ${problem.detail}`);
  }
  const page = (await res.json()) as Page;
  for (const { resource, usage } of page) {
    const phase = (resource.status as { phase?: string } | undefined)?.phase ?? '';
    const used = usage ? `  cpu ${usage.cpu}, memory ${usage.memory}` : '';
    console.log(`${resource.metadata.namespace}/${resource.metadata.name}  ${phase}${used}`);
  }
  seen += page.length;
  total = res.headers.get('x-Total');
  next = nextLink(res.headers.get('link'));
}
console.log(`${seen} pods (x-Total ${total})`);
