// A kubeconfig exec credential plugin for tests, steered by a JSON control file so a test can
// make it fail, stall or change its token between runs:
//   { "mode": "ok" | "fail" | "slow", "token": "...", "message": "...", "delayMs": 0,
//     "expirationTimestamp": "...", "apiVersion": "...", "clientCertificateData": "PEM",
//     "clientKeyData": "PEM",
//     "helper": { "marker": "...", "stdio": "inherit" | "ignore", "ignoreTerm": false, "ownSession": false } }
// SKIFF_PLUGIN_CONTROL names the control file; each run appends its pid to SKIFF_PLUGIN_RUNS,
// so tests can count runs and check a killed plugin is gone.
// Every file it is given must be an absolute path (it refuses to run otherwise), and it and its
// helper run in os.tmpdir(), which the test setup makes each test file's own folder: nothing it
// writes can land in the checkout (the service that runs it works in the repository), and a
// stray file is reported against the test file when the run ends (test/setup/vitest.global-setup.ts).
// With `helper`, the plugin first starts a child that never exits, as plugins that leave an agent
// or a browser behind do: its arguments carry `marker` (so a test can find it in /proc), it keeps
// the plugin's stdout and stderr open with stdio "inherit", shrugs off SIGTERM with ignoreTerm,
// and leaves the process group (a session of its own) with ownSession. The helper appends its own
// pid to SKIFF_PLUGIN_HELPERS once it is set up; the plugin goes on only after that. When
// SKIFF_PLUGIN_OVERLAP is set, each run appends how many other live processes carry the marker
// as it starts (0 when the previous run and its helpers are gone).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute } from 'node:path';

/** A test that sets the plugin up wrongly is told so on stderr (the refusal's message), exit 2. */
function misconfigured(message) {
  process.stderr.write(`credential.mjs: ${message}\n`);
  process.exit(2);
}

/** The file an environment variable names: absolute, or unset (undefined) unless `required`. */
function fileFrom(name, required = false) {
  const value = process.env[name];
  if (value === undefined || value === '') {
    if (required) misconfigured(`${name} is not set`);
    return undefined;
  }
  if (!isAbsolute(value)) misconfigured(`${name} must be an absolute path, not "${value}"`);
  return value;
}

process.chdir(tmpdir());
const controlFile = fileFrom('SKIFF_PLUGIN_CONTROL', true);
const runsFile = fileFrom('SKIFF_PLUGIN_RUNS');
const overlapFile = fileFrom('SKIFF_PLUGIN_OVERLAP');
const control = JSON.parse(readFileSync(controlFile, 'utf8'));
if (runsFile) appendFileSync(runsFile, `${process.pid}\n`);
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO ?? '{}');

/** Live (not zombie) processes other than this one whose command line holds `marker`. */
function othersCarrying(marker) {
  let count = 0;
  for (const pid of readdirSync('/proc').filter((name) => /^\d+$/.test(name))) {
    if (Number(pid) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').includes(marker)) count++;
    } catch {
      // Gone while we looked.
    }
  }
  return count;
}

const helper = control.helper;
if (helper) {
  if (typeof helper.marker !== 'string' || helper.marker === '') misconfigured('a helper needs its marker');
  // Checked before the helper starts: it writes there, and waiting for a file it could not write
  // would hang the run.
  const helpers = fileFrom('SKIFF_PLUGIN_HELPERS', true);
  if (overlapFile) appendFileSync(overlapFile, `${othersCarrying(helper.marker)}\n`);
  // The helper finds its file in the environment it inherits, never by its place among the
  // arguments: the arguments only carry its mode and the marker tests find it by.
  const script = `
    if (process.argv[1] === 'ignore-term') process.on('SIGTERM', () => {});
    require('node:fs').appendFileSync(process.env.SKIFF_PLUGIN_HELPERS, process.pid + '\\n');
    setInterval(() => {}, 1 << 30);`;
  const child = spawn(
    process.execPath,
    ['-e', script, helper.ignoreTerm ? 'ignore-term' : 'plain', helper.marker],
    {
      cwd: tmpdir(),
      env: { ...process.env, SKIFF_PLUGIN_HELPERS: helpers },
      stdio: helper.stdio ?? 'inherit',
      detached: helper.ownSession === true,
    },
  );
  child.unref();
  const ready = () =>
    existsSync(helpers) && readFileSync(helpers, 'utf8').split('\n').includes(String(child.pid));
  while (!ready()) await new Promise((resolve) => setTimeout(resolve, 10));
}

if (control.mode === 'fail') {
  process.stderr.write(`${control.message ?? 'plugin failed'}\n`);
  process.exit(1);
}
if (control.delayMs) await new Promise((resolve) => setTimeout(resolve, control.delayMs));
process.stdout.write(
  JSON.stringify({
    apiVersion: control.apiVersion ?? info.apiVersion ?? 'client.authentication.k8s.io/v1',
    kind: 'ExecCredential',
    status: {
      token: control.token,
      clientCertificateData: control.clientCertificateData,
      clientKeyData: control.clientKeyData,
      ...(control.expirationTimestamp ? { expirationTimestamp: control.expirationTimestamp } : {}),
    },
  }),
);
