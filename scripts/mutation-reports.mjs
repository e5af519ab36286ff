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
import { join } from 'node:path';

export const reportRoot = 'reports/mutation';

/** Every mutation.json under the reports folder: the subset report first, then batches, oldest first. */
function reportPaths() {
  const found = [];
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) walk(path);
      else if (entry.name === 'mutation.json') found.push({ path, mtime: statSync(path).mtimeMs });
    }
  };
  walk(reportRoot);
  const isSubset = (f) => f.path.split(/[\\/]/).includes('subset');
  return found
    .sort((a, b) => Number(isSubset(b)) - Number(isSubset(a)) || a.mtime - b.mtime)
    .map((f) => f.path);
}

/**
 * `files`: module path → the report's file entry (source and mutants) from the report that wins;
 * `from`: module path → that report's path; `reports`: every report read, in the order applied.
 * Exits with a one-line message when there is no report at all.
 */
export function loadMergedReports() {
  const reports = reportPaths();
  if (reports.length === 0) {
    console.error(`No mutation reports under ${reportRoot}/: run \`npm run test:mutation\` first.`);
    process.exit(1);
  }
  const files = {};
  const from = {};
  for (const path of reports) {
    const report = JSON.parse(readFileSync(path, 'utf8'));
    for (const [name, file] of Object.entries(report.files)) {
      files[name] = file;
      from[name] = path;
    }
  }
  return { files, from, reports };
}
