/**
 * The mutation reports StrykerJS left under reports/mutation/, merged into one result per module.
 * Shared by `npm run mutation:table` and `npm run mutation:survivors`.
 *
 * A module measured by several batches counts once, with the newest batch's result. The subset
 * report (`--mutate` runs while writing tests) fills in only modules no batch has measured: it
 * accumulates results of many runs, against hand-picked test files, and does not say when each
 * module was last run, so it never overrides a batch.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { basename, dirname, join, matchesGlob } from 'node:path';
import { Instrumenter } from '@stryker-mutator/instrumenter';
import { batches } from './batches.mjs';
import config from './stryker.config.mjs';

export const reportRoot = 'reports/mutation';

const INCREMENTAL = 'stryker-incremental.json';
// A finished run writes both files within moments; only a later incremental file is a newer run.
const SAME_RUN_MS = 60_000;

/**
 * One report per folder under the reports folder, the subset report first, then batches, oldest
 * first. A folder's report is its mutation.json, or its stryker-incremental.json when that is newer:
 * an interrupted run saves only the incremental file. Either way a module counts only complete.
 */
function reportPaths() {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    const here = {};
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'mutation.json' || entry.name === INCREMENTAL)
        here[entry.name] = { path, mtime: statSync(path).mtimeMs };
    }
    const full = here['mutation.json'];
    const partial = here[INCREMENTAL];
    const newest = partial && (!full || partial.mtime > full.mtime + SAME_RUN_MS) ? partial : full;
    if (newest) found.push(newest);
  };
  walk(reportRoot);
  const isSubset = (f) => f.path.split(/[\\/]/).includes('subset');
  return found
    .sort((a, b) => Number(isSubset(b)) - Number(isSubset(a)) || a.mtime - b.mtime)
    .map((f) => f.path);
}

/**
 * The modules of an interrupted run's incremental file that it got through: as many mutants as
 * Stryker's instrumenter makes of the source the run saw. The file holds every uncovered mutant
 * but only the covered ones tested before the stop, so a module short of its count is unfinished.
 */
async function completeModules(report) {
  const names = Object.keys(report.files);
  const silent = new Proxy({}, { get: (_, key) => (String(key).startsWith('is') ? () => false : () => {}) });
  const { mutants } = await new Instrumenter(silent).instrument(
    names.map((name) => ({ name, content: report.files[name].source, mutate: true })),
    { plugins: null, excludedMutations: [], ignorers: [], noHeader: true },
  );
  const made = new Map();
  for (const m of mutants) made.set(m.fileName, (made.get(m.fileName) ?? 0) + 1);
  return Object.fromEntries(
    names.filter((n) => report.files[n].mutants.length === made.get(n)).map((n) => [n, report.files[n]]),
  );
}

/**
 * `files`: module path → the report's file entry (source and mutants) from the report that wins;
 * `from`: module path → that report's path; `reports`: every report read, in the order applied.
 * Exits with a one-line message when there is no report at all.
 */
const excluded = config.mutate.filter((g) => g.startsWith('!')).map((g) => g.slice(1));

/**
 * Whether a report's result for a module still counts: the module is still mutated at all, and a
 * batch's own report counts only for the modules that batch mutates today (a module moved to
 * another batch is measured there, against that batch's tests).
 */
function stillMeasuredBy(reportPath, module) {
  if (excluded.some((g) => matchesGlob(module, g))) return false;
  const batch = batches.find((b) => b.name === basename(dirname(reportPath)));
  return !batch || batch.mutate.some((g) => matchesGlob(module, g));
}

export async function loadMergedReports() {
  const reports = reportPaths();
  if (reports.length === 0) {
    console.error(`No mutation reports under ${reportRoot}/: run \`npm run test:mutation\` first.`);
    process.exit(1);
  }
  const files = {};
  const from = {};
  for (const path of reports) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    // A finished run's mutation.json can hold modules it did not finish either: Stryker carries
    // over what its incremental file held from an interrupted run, mutated this time or not.
    const modules = await completeModules(report);
    for (const [name, file] of Object.entries(modules)) {
      if (!stillMeasuredBy(path, name)) continue;
      files[name] = file;
      from[name] = path;
    }
  }
  return { files, from, reports };
}
