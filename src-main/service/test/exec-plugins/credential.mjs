// A kubeconfig exec credential plugin for tests, steered by a JSON control file so a test can
// make it fail, stall or change its token between runs:
//   { "mode": "ok" | "fail" | "slow", "token": "...", "message": "...", "delayMs": 0,
//     "expirationTimestamp": "...", "apiVersion": "...", "clientCertificateData": "PEM",
//     "clientKeyData": "PEM",
//     "helper": { "marker": "...", "stdio": "inherit" | "ignore", "ignoreTerm": false, "ownSession": false } }
// SKIFF_PLUGIN_CONTROL names the control file; each run appends its pid to SKIFF_PLUGIN_RUNS,
// so tests can count runs and check a killed plugin is gone.
// With `helper`, the plugin first starts a child that never exits, as plugins that leave an agent
// or a browser behind do: its arguments carry `marker` (so a test can find it in /proc), it keeps
// the plugin's stdout and stderr open with stdio "inherit", shrugs off SIGTERM with ignoreTerm,
// and leaves the process group (a session of its own) with ownSession. The helper appends its own
// pid to SKIFF_PLUGIN_HELPERS once it is set up; the plugin goes on only after that. When
// SKIFF_PLUGIN_OVERLAP is set, each run appends how many other live processes carry the marker
// as it starts (0 when the previous run and its helpers are gone).
import { spawn } from 'node:child_process';
import { appendFileSync, existsSync, readdirSync, readFileSync } from 'node:fs';

const control = JSON.parse(readFileSync(process.env.SKIFF_PLUGIN_CONTROL, 'utf8'));
if (process.env.SKIFF_PLUGIN_RUNS) appendFileSync(process.env.SKIFF_PLUGIN_RUNS, `${process.pid}\n`);
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
  if (process.env.SKIFF_PLUGIN_OVERLAP) {
    appendFileSync(process.env.SKIFF_PLUGIN_OVERLAP, `${othersCarrying(helper.marker)}\n`);
  }
  const helpers = process.env.SKIFF_PLUGIN_HELPERS;
  const script = `
    if (process.argv[1] === 'ignore-term') process.on('SIGTERM', () => {});
    require('node:fs').appendFileSync(process.argv[2], process.pid + '\\n');
    setInterval(() => {}, 1 << 30);`;
  const child = spawn(
    process.execPath,
    ['-e', script, helper.ignoreTerm ? 'ignore-term' : 'plain', helpers, helper.marker],
    { stdio: helper.stdio ?? 'inherit', detached: helper.ownSession === true },
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
