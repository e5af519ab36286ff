import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * The layering rules in biome.json, run against one-line files placed where the rule applies. The
 * files live in a scratch copy of the layout (with the project's own biome.json) so a probe never
 * sits in the work tree where `npm run lint` would trip over it.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');

const cases: Array<{ file: string; from: string; refused: boolean }> = [
  { file: 'src-shared/kube/a.ts', from: '../../src-main/service/errors', refused: true },
  { file: 'src-shared/b.ts', from: '../src-renderer/api/client', refused: true },
  { file: 'src-shared/ipc/c.ts', from: '../../src-preload/bridge', refused: true },
  { file: 'src-shared/kube/d.ts', from: './names', refused: false },
  { file: 'src-renderer/api/e.ts', from: 'electron', refused: true },
  { file: 'src-renderer/api/f.ts', from: '../../src-main/service/errors', refused: true },
  { file: 'src-renderer/api/g.ts', from: '../../src-shared/contract/models', refused: false },
  { file: 'src-preload/h.ts', from: 'electron', refused: false },
  { file: 'src-main/service/clusters/i.ts', from: '../../electron/main', refused: true },
  { file: 'src-main/service/clusters/j.ts', from: '../../cli/args', refused: true },
  { file: 'src-main/service/k.ts', from: 'electron', refused: true },
  // kube/ is the lowest layer; cache/ sits on it and under everything else (its tests excepted).
  { file: 'src-main/service/kube/s.ts', from: '../cache/collection', refused: true },
  { file: 'src-main/service/kube/s2.ts', from: '../clusters/registry', refused: true },
  { file: 'src-main/service/kube/s3.ts', from: '../operations/resources', refused: true },
  { file: 'src-main/service/kube/s4.ts', from: 'electron', refused: true },
  { file: 'src-main/service/kube/s5.ts', from: '../errors', refused: false },
  { file: 'src-main/service/cache/t.ts', from: '../operations/resources', refused: true },
  { file: 'src-main/service/cache/t2.ts', from: '../clusters/registry', refused: true },
  { file: 'src-main/service/cache/t3.ts', from: '../events/entries', refused: true },
  { file: 'src-main/service/cache/t4.ts', from: 'electron', refused: true },
  { file: 'src-main/service/cache/t5.ts', from: '../kube/kube-client', refused: false },
  { file: 'src-main/service/cache/t6.test.ts', from: '../clusters/cluster', refused: false },
  {
    file: 'packages/kube-simulator/src/l.ts',
    from: '../../../src-main/electron/ipc-handlers',
    refused: true,
  },
  { file: 'packages/kube-simulator/src/m.ts', from: '../../../src-main/service/errors', refused: true },
  {
    file: 'packages/kube-simulator/src/demo/m2.ts',
    from: '../../../../src-shared/kube/kinds',
    refused: true,
  },
  { file: 'packages/kube-simulator/src/n.ts', from: '../../../src-shared/kube/selector', refused: false },
  { file: 'packages/kube-simulator/src/n2.ts', from: './cli', refused: false },
  { file: 'packages/kube-simulator/src/r.ts', from: 'electron', refused: true },
  { file: 'src-main/cli/o.ts', from: '../service/clusters/sources', refused: false },
  { file: 'src-main/cli/p.ts', from: 'electron', refused: true },
  { file: 'src-main/electron/q.ts', from: 'electron', refused: false },
];

let refusedFiles: Set<string>;
let scratch: string;

beforeAll(() => {
  scratch = mkdtempSync(join(tmpdir(), 'skiff-boundaries-'));
  const config = JSON.parse(readFileSync(join(root, 'biome.json'), 'utf8')) as Record<string, unknown>;
  delete config.$schema;
  // The scratch folder is no git work tree.
  config.vcs = { enabled: false };
  writeFileSync(join(scratch, 'biome.json'), JSON.stringify(config));
  for (const c of cases) {
    mkdirSync(dirname(join(scratch, c.file)), { recursive: true });
    writeFileSync(join(scratch, c.file), `import { x } from '${c.from}';\nexport const y = x;\n`);
  }
  let out: string;
  try {
    out = execFileSync(
      process.execPath,
      [
        join(root, 'node_modules/@biomejs/biome/bin/biome'),
        'lint',
        '--only=style/noRestrictedImports',
        '--reporter=json',
        '.',
      ],
      { cwd: scratch, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch (err) {
    // Biome exits 1 when it found errors; the report is on stdout all the same.
    out = (err as { stdout: string }).stdout;
  }
  const report = JSON.parse(out) as {
    diagnostics: Array<{ category: string; location: { path: string } }>;
  };
  refusedFiles = new Set(
    report.diagnostics
      .filter((d) => d.category === 'lint/style/noRestrictedImports')
      .map((d) => d.location.path),
  );
});

afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('layer boundaries (biome noRestrictedImports)', () => {
  it.each(cases)('$file importing $from: refused $refused', ({ file, refused }) => {
    expect(refusedFiles.has(file)).toBe(refused);
  });
});
