/**
 * `npm run mutation:table`: the per-folder table of mutation scores for docs/testing.md, from every
 * report StrykerJS left under reports/mutation/ (merged as tools/mutation/reports.mjs says).
 *
 * `--modules` adds one row per module; `--below 75` lists only the modules under that score.
 * Scores are mutation-testing-metrics' own (killed + timeout over valid mutants), the same figure
 * Stryker's clear-text table shows as "total".
 */
import { posix } from 'node:path';
import { calculateMetrics } from 'mutation-testing-metrics';
import { loadMergedReports } from './reports.mjs';

const args = process.argv.slice(2);
const withModules = args.includes('--modules');
const belowAt = args.indexOf('--below');
const below = belowAt >= 0 ? Number(args[belowAt + 1]) : undefined;

const { files, reports } = await loadMergedReports();

const folderOf = (name) => posix.dirname(name);
const metricsOf = (names) => calculateMetrics(Object.fromEntries(names.map((n) => [n, files[n]]))).metrics;

/**
 * path → metrics for every module, every folder holding one, and the two targets' roots. Computed
 * per group rather than read off calculateMetrics' tree, which folds a folder with one child into its
 * parent's name (a report of one folder would print no rows).
 */
const rows = new Map();
const names = Object.keys(files);
const folderNames = new Set(names.map(folderOf));
for (const root of ['src-main/service', 'src-shared']) {
  if (names.some((n) => n.startsWith(`${root}/`))) folderNames.add(root);
}
for (const folder of folderNames) {
  rows.set(folder, { metrics: metricsOf(names.filter((n) => n.startsWith(`${folder}/`))), isFile: false });
}
for (const name of names) rows.set(name, { metrics: metricsOf([name]), isFile: true });

const pct = (m) => (m.totalValid === 0 ? 'n/a' : `${m.mutationScore.toFixed(1)}%`);
const line = (name, m) =>
  `| ${name} | ${pct(m)} | ${m.totalDetected} | ${m.survived} | ${m.noCoverage} | ${m.ignored} |`;

const header = [
  '| Folder | Score | Killed | Survived | No coverage | Ignored (static) |',
  '|---|---|---|---|---|---|',
];
const out = [...header];
const folders = [...rows.entries()]
  .filter(([, row]) => !row.isFile)
  .map(([name]) => name)
  .filter((name) => name.startsWith('src-'))
  .sort();
for (const name of folders) {
  out.push(line(`\`${name}\``, rows.get(name).metrics));
  if (!withModules) continue;
  for (const [file, row] of rows) {
    if (row.isFile && folderOf(file) === name) out.push(line(`  \`${posix.basename(file)}\``, row.metrics));
  }
}

if (below !== undefined) {
  const low = [...rows.entries()]
    .filter(([, row]) => row.isFile && row.metrics.totalValid > 0 && row.metrics.mutationScore < below)
    .sort((a, b) => a[1].metrics.mutationScore - b[1].metrics.mutationScore);
  console.log([...header, ...low.map(([name, row]) => line(`\`${name}\``, row.metrics))].join('\n'));
} else {
  console.log(out.join('\n'));
}
const measured = Object.keys(files).length;
console.error(`${measured} modules from ${reports.length} report(s): ${reports.join(', ')}`);
