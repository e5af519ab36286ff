import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';
import { parseSnapshotArgs, SnapshotUsageError } from './snapshot-args';

/** serve and snapshot read the cluster options (cluster-args.ts) the same way. */
const commands = [
  {
    name: 'serve',
    parse: (args: string[]) => parseServeArgs(args, { dataDir: '/d' }),
    refusal: UsageError,
  },
  {
    name: 'snapshot',
    parse: (args: string[]) => parseSnapshotArgs(['--context', 'prod', ...args])!,
    refusal: SnapshotUsageError,
  },
];

describe.each(commands)('$name: the cluster options', ({ parse, refusal }) => {
  it('takes --timeout in seconds, 10 when absent', () => {
    expect(parse(['--timeout', '2.5']).timeoutMs).toBe(2500);
    expect(parse([]).timeoutMs).toBe(10_000);
  });

  it('refuses a --timeout that is not a number of seconds above 0 and up to 600', () => {
    for (const t of ['0', '-1', '601', 'soon']) {
      expect(() => parse([`--timeout=${t}`]), t).toThrow(refusal);
      expect(() => parse([`--timeout=${t}`]), t).toThrow(
        /--timeout must be a number of seconds from 0 to 600/,
      );
    }
  });

  it('collects every --kubeconfig, in order', () => {
    expect(parse(['--kubeconfig', 'b.yaml', '--kubeconfig', 'a.yaml']).kubeconfig).toEqual([
      'b.yaml',
      'a.yaml',
    ]);
  });

  it('refuses an unknown option and a stray word', () => {
    expect(() => parse(['--kubconfig', 'x'])).toThrow(refusal);
    expect(() => parse(['stray'])).toThrow(refusal);
  });
});
