import { describe, expect, it } from 'vitest';
import { parseSnapshotArgs, SnapshotUsageError } from './snapshot-args';

/**
 * `npm run snapshot -- --kinds …` as parsed (snapshot-args.ts): names as typed, resolved against
 * the cluster once connected (snapshot-capture-cli.it.test.ts runs that part as a process).
 */

const parse = (...args: string[]) => parseSnapshotArgs(['--context', 'prod', ...args])!;

describe('--kinds', () => {
  it('is absent unless given: every kind is taken', () => {
    expect(parse()).not.toHaveProperty('kinds');
  });

  it('takes names separated by commas, repeated, trimmed, each once, in order', () => {
    expect(parse('--kinds', 'pod, ConfigMap', '--kinds', 'certificate.cert-manager.io,pod').kinds).toEqual([
      'pod',
      'ConfigMap',
      'certificate.cert-manager.io',
    ]);
  });

  it('refuses an empty name, more than 1,000 names and a name longer than any kind’s, in one line', () => {
    for (const [kinds, says] of [
      ['pod,,svc', /^--kinds takes kind names separated by commas, e.g\. --kinds pod,configmap$/],
      ['', /^--kinds takes kind names/],
      [Array.from({ length: 1_001 }, (_, i) => `k${i}`).join(','), /^--kinds names at most 1000 kinds$/],
      ['k'.repeat(318), /^--kinds: "k{64}…" is longer than any kind's name$/],
    ] as const) {
      expect(() => parse('--kinds', kinds)).toThrow(SnapshotUsageError);
      expect(() => parse('--kinds', kinds)).toThrow(says);
    }
    expect(parse('--kinds', Array.from({ length: 1_000 }, (_, i) => `k${i}`).join(',')).kinds).toHaveLength(
      1_000,
    );
    expect(parse('--kinds', 'k'.repeat(317)).kinds).toEqual(['k'.repeat(317)]);
  });
});
