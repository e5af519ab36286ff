/**
 * `node scripts/serve.mjs` on a Node older than package.json's engines asks for says so in one
 * line, with the command that runs it on the project's own Node, instead of dying at the first
 * `node:sqlite` import. Run with the machine's own older `node` where there is one (these machines
 * have Node 20 as /usr/bin/node); skipped, with the reason, where every `node` is new enough.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { nodeVersionProblem } from '../../scripts/serve.mjs';

const SERVE = join(import.meta.dirname, '../../scripts/serve.mjs');

/** The first `node` on the PATH (outside node_modules) or in /usr/bin that is older than Node 24. */
function olderNode(): string | undefined {
  const dirs = (process.env.PATH ?? '')
    .split(delimiter)
    .filter((d) => d !== '' && !d.includes('node_modules'));
  for (const dir of [...dirs, '/usr/bin', '/usr/local/bin']) {
    const bin = join(dir, 'node');
    if (!existsSync(bin)) continue;
    const version = spawnSync(bin, ['--version'], { encoding: 'utf8' }).stdout.trim();
    if (Number(/^v(\d+)/.exec(version)?.[1] ?? 99) < 24) return bin;
  }
  return undefined;
}

const older = olderNode();

describe('serve.mjs on an older Node', () => {
  it('finds nothing to say on this Node (the project’s own, 24)', () => {
    expect(nodeVersionProblem()).toBeNull();
    expect(nodeVersionProblem('v24.0.0', '/x', [])).toBeNull();
  });

  it('names the Node needed, the one running and the command, with the arguments given', () => {
    expect(nodeVersionProblem('v20.20.2', '/usr/bin/node', ['--port', '0', '--data-dir', "/tmp/a b's"])).toBe(
      'skiff: Node 24 or newer is needed (node:sqlite), but this is Node v20.20.2 (/usr/bin/node); ' +
        "run it with the project's Node: npm run serve -- --port 0 --data-dir '/tmp/a b'\\''s'  " +
        "(or: npx node scripts/serve.mjs --port 0 --data-dir '/tmp/a b'\\''s')",
    );
    expect(nodeVersionProblem('v23.11.0', '/n', [])).toBe(
      'skiff: Node 24 or newer is needed (node:sqlite), but this is Node v23.11.0 (/n); ' +
        "run it with the project's Node: npm run serve  (or: npx node scripts/serve.mjs)",
    );
  });

  it.skipIf(older === undefined)(
    `exits 1 with that one line when run by the machine's ${older ?? '(no older node found)'}`,
    () => {
      const run = spawnSync(older!, [SERVE, '--port', '0', '--demo'], {
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, SKIFF_ADMIN_PASSWORD: 'never-used-here' },
      });
      expect(run.status).toBe(1);
      expect(run.stdout).toBe('');
      const lines = run.stderr.split('\n').filter((l) => l !== '');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(/^skiff: Node 24 or newer is needed \(node:sqlite\), but this is Node v\d+\./);
      expect(lines[0]).toContain('npm run serve -- --port 0 --demo');
      expect(lines[0]).toContain('npx node scripts/serve.mjs --port 0 --demo');
    },
  );
});
