// A kubeconfig exec credential plugin for tests, steered by a JSON control file so a test can
// make it fail, stall or change its token between runs:
//   { "mode": "ok" | "fail" | "slow", "token": "...", "message": "...", "delayMs": 0,
//     "expirationTimestamp": "...", "apiVersion": "...", "clientCertificateData": "PEM",
//     "clientKeyData": "PEM" }
// SKIFF_PLUGIN_CONTROL names the control file; each run appends its pid to SKIFF_PLUGIN_RUNS,
// so tests can count runs and check a killed plugin is gone.
import { appendFileSync, readFileSync } from 'node:fs';

const control = JSON.parse(readFileSync(process.env.SKIFF_PLUGIN_CONTROL, 'utf8'));
if (process.env.SKIFF_PLUGIN_RUNS) appendFileSync(process.env.SKIFF_PLUGIN_RUNS, `${process.pid}\n`);
const info = JSON.parse(process.env.KUBERNETES_EXEC_INFO ?? '{}');

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
