/**
 * The names a snapshot gets: the clusterId an opened snapshot is served under (open.ts) and the
 * file name a capture is downloaded as (jobs.ts). Pure functions, called directly.
 */
import { describe, expect, it } from 'vitest';
import { snapshotFileName } from './jobs';
import { snapshotClusterId } from './open';

const never = () => false;

describe('the clusterId of an opened snapshot', () => {
  it('is the context slug, "-snapshot-" and the time taken to the second, lower-case, with no fraction', () => {
    expect(snapshotClusterId('Prod-EU', '2026-11-24T14:03:07.456Z', never)).toBe(
      'prod-eu-snapshot-20261124t140307z',
    );
    expect(snapshotClusterId('prod', '2026-11-24T14:03:07Z', never)).toBe('prod-snapshot-20261124t140307z');
  });

  it('keeps at most 30 characters of the context, never ending the cut on a dash', () => {
    // The 30th character of the slug is a dash: the cut drops it.
    const context = 'abcdefghij-klmnopqrs-tuvwxyz12-tail';
    expect(snapshotClusterId(context, '2026-01-02T03:04:05Z', never)).toBe(
      'abcdefghij-klmnopqrs-tuvwxyz12-snapshot-20260102t030405z',
    );
    const cut = 'abcdefghij-klmnopqrs-tuvwxyz1-tail';
    expect(snapshotClusterId(cut, '2026-01-02T03:04:05Z', never)).toBe(
      'abcdefghij-klmnopqrs-tuvwxyz1-snapshot-20260102t030405z',
    );
  });

  it('takes the first free of base, base-2, base-3… when the id is taken', () => {
    const base = 'prod-snapshot-20260102t030405z';
    const taken = new Set([base, `${base}-2`, `${base}-4`]);
    expect(snapshotClusterId('prod', '2026-01-02T03:04:05Z', (id) => taken.has(id))).toBe(`${base}-3`);
  });
});

describe('the file name of a capture', () => {
  const at = Date.parse('2026-11-24T14:03:07.891Z');

  it('is the context and the time taken to the second, with dashes for colons, and .skiff', () => {
    expect(snapshotFileName('prod-eu', at)).toBe('prod-eu-2026-11-24T14-03-07Z.skiff');
  });

  it('turns each run of unsafe characters into one dash and trims dashes and dots at the start, dashes at the end', () => {
    expect(snapshotFileName('..-gke_proj/zone: a b..c  ', at)).toBe(
      'gke_proj-zone-a-b..c-2026-11-24T14-03-07Z.skiff',
    );
    expect(snapshotFileName('a b--', at)).toBe('a-b-2026-11-24T14-03-07Z.skiff');
    expect(snapshotFileName('arn:aws:eks:eu/x.y-', at)).toBe('arn-aws-eks-eu-x.y-2026-11-24T14-03-07Z.skiff');
  });

  it('is named "cluster" when nothing of the context is safe', () => {
    expect(snapshotFileName('/::/', at)).toBe('cluster-2026-11-24T14-03-07Z.skiff');
  });
});
