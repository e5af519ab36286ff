/**
 * credential.mjs as a kubeconfig exec stanza, steered by a control file the test can rewrite
 * between runs, with its runs, its helpers and their overlaps counted in files next to it. Each
 * fixture has its own marker, so what it started can be found in /proc and ended after the test.
 * Its files live in the absolute folder the test gives (under os.tmpdir()), never in the checkout.
 */
import { writeFile } from 'node:fs/promises';
import { isAbsolute, join } from 'node:path';
import type { ExecConfig } from '../../kube/exec-plugin';
import { killCarrying, pidsIn, uniqueMarker } from './processes.test-support';

export const PLUGIN = join(import.meta.dirname, 'credential.mjs');

export interface HelperControl {
  stdio?: 'inherit' | 'ignore';
  ignoreTerm?: boolean;
  ownSession?: boolean;
}

export interface PluginControl {
  mode: 'ok' | 'fail';
  token?: string;
  message?: string;
  delayMs?: number;
  helper?: HelperControl;
}

export interface PluginFixture {
  exec: ExecConfig;
  marker: string;
  /** Rewrites the control file: the next run does as it says. */
  steer(control: PluginControl): Promise<void>;
  runs(): number;
  /** Pids of the helpers started so far, each once it was set up. */
  helpers(): number[];
  /** Per run with a helper: how many marked processes (earlier runs, their helpers) were alive as it started. */
  overlaps(): number[];
}

/** Fixtures made in `dir`; `cleanup()` ends whatever they left running (for afterEach). */
export function pluginFixtures(dir: () => string) {
  const markers: string[] = [];
  async function fixture(control: PluginControl): Promise<PluginFixture> {
    const marker = uniqueMarker();
    markers.push(marker);
    const folder = dir();
    // The plugin runs where the service does (the checkout): a relative path would write there.
    if (!isAbsolute(folder)) throw new Error(`plugin fixtures need an absolute folder, not "${folder}"`);
    const file = (suffix: string) => join(folder, `${marker}.${suffix}`);
    const steer = (c: PluginControl) =>
      writeFile(file('control'), JSON.stringify(c.helper ? { ...c, helper: { marker, ...c.helper } } : c));
    await steer(control);
    return {
      exec: {
        command: process.execPath,
        args: [PLUGIN, marker],
        env: [
          { name: 'SKIFF_PLUGIN_CONTROL', value: file('control') },
          { name: 'SKIFF_PLUGIN_RUNS', value: file('runs') },
          { name: 'SKIFF_PLUGIN_HELPERS', value: file('helpers') },
          { name: 'SKIFF_PLUGIN_OVERLAP', value: file('overlap') },
        ],
      },
      marker,
      steer,
      runs: () => pidsIn(file('runs')).length,
      helpers: () => pidsIn(file('helpers')),
      overlaps: () => pidsIn(file('overlap')),
    };
  }
  const cleanup = () => {
    for (const marker of markers.splice(0)) killCarrying(marker);
  };
  return { fixture, cleanup };
}
