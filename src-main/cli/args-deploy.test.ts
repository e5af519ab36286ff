/**
 * `serve`'s flags for running in a cluster (issue 25 §3): --in-cluster/--no-in-cluster,
 * --cluster-name, --tls-cert/--tls-key, --public-url and --shutdown-grace, with their defaults and
 * a usage error naming the rule for each bad value.
 */
import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

const parse = (argv: string[]) => parseServeArgs(argv, { dataDir: '/d' });
const refusal = (argv: string[]) => {
  try {
    parse(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n')[0];
  }
  throw new Error(`accepted ${argv.join(' ')}`);
};

describe('serve: flags for running in a cluster', () => {
  it('defaults: in-cluster left to the environment, named in-cluster, plain HTTP, no public URL, 20 s grace', () => {
    const o = parse([]);
    expect([o.inCluster, o.clusterName, o.tls, o.publicUrl, o.shutdownGraceMs]).toEqual([
      undefined,
      'in-cluster',
      undefined,
      undefined,
      20_000,
    ]);
  });

  it('reads each flag', () => {
    const o = parse([
      '--in-cluster',
      '--cluster-name',
      'prod.eu-1_a',
      '--tls-cert',
      'tls.crt',
      '--tls-key',
      'tls.key',
      '--public-url',
      'https://Skiff.Example.com:8443/',
      '--shutdown-grace',
      '45s',
    ]);
    expect(o).toMatchObject({
      inCluster: true,
      clusterName: 'prod.eu-1_a',
      tls: { certFile: 'tls.crt', keyFile: 'tls.key' },
      publicUrl: 'https://skiff.example.com:8443',
      shutdownGraceMs: 45_000,
    });
    expect(parse(['--no-in-cluster']).inCluster).toBe(false);
    expect(parse(['--public-url', 'http://skiff.lan']).publicUrl).toBe('http://skiff.lan');
    expect(parse(['--shutdown-grace', '10m']).shutdownGraceMs).toBe(600_000);
    expect(parse(['--cluster-name', 'a'.repeat(63)]).clusterName).toBe('a'.repeat(63));
  });

  it('refuses contradictions and bad values with the rule', () => {
    expect(refusal(['--in-cluster', '--no-in-cluster'])).toBe(
      '--in-cluster and --no-in-cluster contradict each other',
    );
    for (const name of ['', '.lead', 'has space', 'a'.repeat(64), 'slash/name']) {
      expect(refusal(['--cluster-name', name]), name).toMatch(/^--cluster-name must be 1-63 letters/);
    }
    for (const argv of [
      ['--tls-cert', 'c'],
      ['--tls-key', 'k'],
      ['--tls-cert', '', '--tls-key', 'k'],
      ['--tls-cert', 'c', '--tls-key', ''],
    ]) {
      expect(refusal(argv), argv.join(' ')).toBe(
        '--tls-cert and --tls-key go together, each naming a PEM file',
      );
    }
    for (const url of [
      'skiff.example.com',
      'ftp://skiff',
      'https://skiff/ui',
      'https://skiff/?a=1',
      'https://skiff/#x',
      'https://u:p@skiff',
    ]) {
      expect(refusal(['--public-url', url]), url).toBe(
        `--public-url ${url}: give the http(s) origin clients use, without a path (https://skiff.example.com)`,
      );
    }
    for (const grace of ['0s', 'soon', '11m', '20']) {
      expect(refusal(['--shutdown-grace', grace]), grace).toBe(
        '--shutdown-grace must be a duration from 1s to 10m, such as 20s',
      );
    }
  });
});
