/**
 * One read of a cluster's discovery. /api is asked for the aggregated document first (the Accept
 * client-go sends, plain JSON as the fallback); a server that answers it is read from /api and
 * /apis alone, any other from the legacy documents, each group version in parallel (a bounded
 * number at a time). A group version that fails (an aggregated API answering 503, a document
 * that is not one) becomes a gap and the others are still read; only /api or /apis failing, or
 * answering something that is no discovery at all, fails the read.
 */

import { AGGREGATED_ACCEPT, parseAggregated } from './aggregated';
import { coreVersion, parseResourceList, preferredGroupVersions } from './legacy';
import { type Discovery, type DiscoveryGap, groupVersionOf, type ServedResource } from './model';
import { compareText } from './names';

/** GETs a discovery path and answers its JSON; rejects when the cluster does not answer 2xx. */
export type DiscoveryGet = (path: string, accept?: string) => Promise<unknown>;

/** Group documents read at once in the legacy path; a cluster has some 25 groups. */
export const LEGACY_CONCURRENCY = 6;

export class DiscoveryDocumentError extends Error {
  constructor(path: string) {
    super(`the cluster answered ${path} with something that is not a discovery document`);
    this.name = 'DiscoveryDocumentError';
  }
}

export async function readDiscovery(get: DiscoveryGet): Promise<Discovery> {
  const core = await get('/api', AGGREGATED_ACCEPT);
  const aggregatedCore = parseAggregated(core);
  if (aggregatedCore) {
    const groups = parseAggregated(await get('/apis', AGGREGATED_ACCEPT));
    if (!groups) throw new DiscoveryDocumentError('/apis');
    return {
      resources: [...aggregatedCore.resources, ...groups.resources],
      gaps: byGroupVersion([...aggregatedCore.gaps, ...groups.gaps]),
      source: 'aggregated',
    };
  }
  const version = coreVersion(core);
  if (version === undefined) throw new DiscoveryDocumentError('/api');
  const groups = preferredGroupVersions(await get('/apis'));
  if (groups === undefined) throw new DiscoveryDocumentError('/apis');
  const reads = [{ group: '', version, path: `/api/${version}` }].concat(
    groups.map((g) => ({ ...g, path: `/apis/${g.group}/${g.version}` })),
  );
  // Indexed by read, so resources keep the order of the reads; a failed read leaves a hole.
  const resources: ServedResource[][] = [];
  const gaps: DiscoveryGap[] = [];
  let next = 0;
  const worker = async () => {
    while (next < reads.length) {
      const at = next++;
      const { group, version: v, path } = reads[at] as (typeof reads)[number];
      try {
        const list = parseResourceList(await get(path), group, v);
        if (!list) throw new DiscoveryDocumentError(path);
        resources[at] = list;
      } catch (err) {
        gaps.push({ groupVersion: groupVersionOf(group, v), message: messageOf(err) });
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(LEGACY_CONCURRENCY, reads.length) }, worker));
  return { resources: resources.flat(), gaps: byGroupVersion(gaps), source: 'legacy' };
}

/** Gaps in one order whatever order their reads ended in. */
function byGroupVersion(gaps: DiscoveryGap[]): DiscoveryGap[] {
  return gaps.sort((a, b) => compareText(a.groupVersion, b.groupVersion));
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
