/**
 * `npm run mutation:table`: the per-folder table of mutation scores for the README, from every
 * report StrykerJS left under reports/mutation/ (merged as scripts/mutation-reports.mjs says).
 *
 * `--modules` adds one row per module; `--below 75` lists only the modules under that score.
 * Scores are mutation-testing-metrics' own (killed + timeout over valid mutants), the same figure
 * Stryker's clear-text table shows as "total".
 */
import { posix } from 'node:path';
import { calculateMetrics } from 'mutation-testing-metrics';
import { loadMergedReports } from './mutation-reports.mjs';

const args = process.argv.slice(2);
const withModules = args.includes('--modules');
const belowAt = args.indexOf('--below');
const below = belowAt >= 0 ? Number(args[belowAt + 1]) : undefined;

const { files, reports } = loadMergedReports();

/** The folders a row is printed for: the module's own folder and the two targets' roots. */
const folderOf = (name) => posix.dirname(name);
const tree = calculateMetrics(files);

/** name → metrics for every folder and file of the tree, keyed by its path. */
const rows = new Map();
const visit = (node, prefix) => {
  const path = prefix ? `${prefix}/${node.name}` : node.name;
  rows.set(path, { metrics: node.metrics, isFile: node.file !== undefined });
  for (const child of node.childResults) visit(child, path === 'All files' ? '' : path);
};
for (const child of tree.childResults) visit(child, '');

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
const shown = new Set(Object.keys(files).map(folderOf));
for (const name of folders) {
  // Intermediate folders with no module of their own (src-main) add nothing to the table.
  if (!shown.has(name) && name !== 'src-main/service' && name !== 'src-shared') continue;
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
