import { type ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';

export interface ServiceProcess {
  url: string;
  pid: number;
  /** Peak resident set size (VmHWM) of the service process, in MiB. */
  peakRssMiB(): number;
  stop(): Promise<void>;
}

/** Runs `serve` in its own Node process (not through the tsx wrapper) so its memory is its own. */
export async function startServiceProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
): Promise<ServiceProcess> {
  const child: ChildProcess = spawn(process.execPath, ['scripts/serve.mjs', ...args], {
    env: { ...process.env, SKIFF_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      const m = /^listening on (http:\/\/\S+)$/.exec(line);
      if (m) resolve(m[1]!);
    });
    child.once('exit', (code) => reject(new Error(`serve exited with ${code}`)));
  });
  return {
    url,
    pid: child.pid!,
    peakRssMiB() {
      const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
      const kb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb / 1024;
    },
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
      }),
  };
}
