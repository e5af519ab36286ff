/**
 * `npm run mutation:survivors -- <path prefix>...`: every mutant that survived or that no test
 * reached, in the modules under the given prefixes (all modules without one), each with its place,
 * the mutator, the original source line and what the mutant put there. This is the list a test
 * writer works from; the HTML report shows the same, one file at a time.
 *
 * `--status Survived` (or NoCoverage, Timeout...) lists only that status. `--from <file>` reads one
 * report instead of the merged ones: a batch's `stryker-incremental.json` holds the mutants an
 * interrupted run had tested so far.
 */
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { loadMergedReports } from './reports.mjs';

let parsed;
try {
  parsed = parseArgs({
    allowPositionals: true,
    options: { status: { type: 'string', multiple: true }, from: { type: 'string' } },
  });
} catch (error) {
  console.error(`mutation:survivors: ${error.message}`);
  process.exit(2);
}
const prefixes = parsed.positionals;
const statuses = new Set(parsed.values.status ?? ['Survived', 'NoCoverage']);

async function readReports() {
  const file = parsed.values.from;
  if (file === undefined) return loadMergedReports();
  try {
    const { files } = JSON.parse(readFileSync(file, 'utf8'));
    return { files, from: Object.fromEntries(Object.keys(files).map((name) => [name, file])) };
  } catch (error) {
    console.error(`mutation:survivors: cannot read ${file}: ${error.message}`);
    process.exit(2);
  }
}
const { files, from } = await readReports();
let shown = 0;
for (const name of Object.keys(files).sort()) {
  if (prefixes.length > 0 && !prefixes.some((prefix) => name.startsWith(prefix))) continue;
  const file = files[name];
  const lines = file.source.split('\n');
  const left = file.mutants
    .filter((m) => statuses.has(m.status))
    .sort(
      (a, b) =>
        a.location.start.line - b.location.start.line || a.location.start.column - b.location.start.column,
    );
  if (left.length === 0) continue;
  console.log(`\n## ${name} (${left.length}; from ${from[name]})`);
  for (const m of left) {
    const { start } = m.location;
    const original = (lines[start.line - 1] ?? '').trim();
    const replacement = (m.replacement ?? '').replace(/\s+/g, ' ').slice(0, 160);
    console.log(`${start.line}:${start.column} ${m.status} ${m.mutatorName}`);
    console.log(`    ${original.slice(0, 160)}`);
    console.log(`  → ${replacement}`);
    shown += 1;
  }
}
console.error(`${shown} mutant(s) listed.`);
