/**
 * `npm run test:mutation`: StrykerJS over every module of src-main/service and src-shared, one batch
 * at a time (tools/mutation/batches.mjs), then the per-folder table (tools/mutation/table.mjs).
 *
 *   npm run test:mutation                      every batch, in order
 *   npm run test:mutation -- --batch auth,logs only these batches
 *   npm run test:mutation -- --list            the batches and how many modules each holds
 *   npm run test:mutation -- --force           re-test every mutant, not only what changed
 *
 * Each batch keeps its report and incremental file in reports/mutation/<batch>/: the next run
 * re-tests only mutants whose code or tests changed, and an interrupted run (Stryker saves a partial
 * incremental file on SIGINT) goes on where it stopped. Before running anything, every module the Stryker config mutates must belong to exactly
 * one batch: a new module cannot drop out of the measurement unnoticed.
 */
import { spawnSync } from 'node:child_process';
import { globSync } from 'node:fs';
import { matchesGlob } from 'node:path';
import { parseArgs } from 'node:util';
import { batches } from './batches.mjs';
import config from './stryker.config.mjs';

// Not at the root, so Stryker does not find it by itself: each run names it (paths from the repo root).
const STRYKER_CONFIG = 'tools/mutation/stryker.config.mjs';

let options;
try {
  ({ values: options } = parseArgs({
    options: { batch: { type: 'string' }, list: { type: 'boolean' }, force: { type: 'boolean' } },
  }));
} catch (err) {
  console.error(`${err.message}\nusage: npm run test:mutation -- [--batch NAME,NAME] [--list] [--force]`);
  process.exit(2);
}

const include = config.mutate.filter((g) => !g.startsWith('!'));
const exclude = config.mutate.filter((g) => g.startsWith('!')).map((g) => g.slice(1));
const inScope = (file) => !exclude.some((g) => matchesGlob(file, g));
const expand = (globs) => new Set(globs.flatMap((g) => globSync(g)).filter(inScope));

const modules = expand(include);
const owners = new Map();
for (const batch of batches) {
  for (const file of expand(batch.mutate)) owners.set(file, [...(owners.get(file) ?? []), batch.name]);
}
const strays = [...modules].filter((f) => !owners.has(f));
const doubles = [...owners].filter(([, names]) => names.length > 1);
const outside = [...owners.keys()].filter((f) => !modules.has(f));
if (strays.length + doubles.length + outside.length > 0) {
  for (const f of strays) console.error(`not in any batch: ${f}`);
  for (const [f, names] of doubles) console.error(`in several batches (${names.join(', ')}): ${f}`);
  for (const f of outside)
    console.error(`in a batch but not mutated by tools/mutation/stryker.config.mjs: ${f}`);
  console.error('Fix tools/mutation/batches.mjs so that every module belongs to exactly one batch.');
  process.exit(2);
}

if (options.list) {
  for (const batch of batches) {
    const count = [...owners.values()].filter((names) => names[0] === batch.name).length;
    const tests = new Set(batch.tests.flatMap((g) => globSync(g))).size;
    console.log(
      `${batch.name.padEnd(10)} ${String(count).padStart(3)} modules  ${String(tests).padStart(3)} test files`,
    );
  }
  process.exit(0);
}

const wanted = options.batch?.split(',');
const unknown = (wanted ?? []).filter((name) => !batches.some((b) => b.name === name));
if (unknown.length > 0) {
  console.error(`unknown batch: ${unknown.join(', ')} (known: ${batches.map((b) => b.name).join(', ')})`);
  process.exit(2);
}
const chosen = batches.filter((b) => !wanted || wanted.includes(b.name));

const failed = [];
for (const batch of chosen) {
  const started = Date.now();
  console.log(`\n== mutation batch ${batch.name}`);
  const strykerArgs = [
    'run',
    STRYKER_CONFIG,
    '--mutate',
    [...batch.mutate, ...exclude.map((g) => `!${g}`)].join(','),
    '--testFiles',
    batch.tests.join(','),
  ];
  if (options.force) strykerArgs.push('--force');
  const run = spawnSync('node_modules/.bin/stryker', strykerArgs, {
    stdio: 'inherit',
    env: { ...process.env, SKIFF_MUTATION_REPORTS: `reports/mutation/${batch.name}` },
  });
  const minutes = ((Date.now() - started) / 60_000).toFixed(1);
  console.log(`== batch ${batch.name}: exit ${run.status} after ${minutes} min`);
  if (run.status !== 0) failed.push(batch.name);
}

console.log('');
spawnSync(process.execPath, ['tools/mutation/table.mjs'], { stdio: 'inherit' });
if (failed.length > 0) {
  console.error(`batches that failed to run: ${failed.join(', ')}`);
  process.exit(1);
}
