import { type ChildProcess, spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { serviceArgs } from '../scripts/serve.mjs';

export interface NodeProcess {
  pid: number;
  /** Peak resident set size (VmHWM) of the process, in MiB. */
  peakRssMiB(): number;
  /** Resident set size now (VmRSS), in MiB. */
  rssMiB(): number;
  /** Open file descriptors now (entries of /proc/<pid>/fd). */
  openFds(): number;
  /** CPU time (user + system) used so far, in seconds, at the kernel's 10 ms tick. */
  cpuSeconds(): number;
  /** Resolves once the process has exited; SIGKILL if SIGTERM is not enough within 5 s. */
  stop(): Promise<void>;
}

export interface ServiceProcess extends NodeProcess {
  url: string;
}

export interface SpawnOptions {
  /** Flags for node itself, before the script (e.g. --trace-gc). */
  nodeArgs?: string[];
  /** Every stdout line after the ready line, e.g. to read --trace-gc output. */
  onLine?: (line: string) => void;
}

const children = new Set<ChildProcess>();
// A bench that throws must not leave a service or a simulator running behind it.
process.once('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});

// Enough to see what went wrong, few enough that a service logging every request under load
// does not bury the tables.
const STDERR_LINES = 10;

function relayStderr(child: ChildProcess, name: string) {
  let lines = 0;
  const input = createInterface({ input: child.stderr! });
  input.on('line', (line) => {
    if (++lines <= STDERR_LINES) process.stderr.write(`[${name} ${child.pid}] ${line.slice(0, 400)}\n`);
  });
  input.once('close', () => {
    if (lines > STDERR_LINES)
      process.stderr.write(`[${name} ${child.pid}] … and ${lines - STDERR_LINES} more lines on stderr\n`);
  });
}

const procKiB = (pid: number, field: string) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
};

/** `scripts/serve.mjs` runs built JavaScript (rebuilt when stale): the service, or another entry. */
export const SERVE_SCRIPT = fileURLToPath(new URL('../scripts/serve.mjs', import.meta.url));

/**
 * Runs Node with `argv` (flags, script, arguments) as its own process, so its memory is its own,
 * and waits until stdout prints a line matching `ready`.
 */
export async function startNodeScript(
  argv: string[],
  env: NodeJS.ProcessEnv,
  ready: RegExp,
  opts: SpawnOptions = {},
): Promise<{ proc: NodeProcess; match: RegExpExecArray; lines: string[] }> {
  const child: ChildProcess = spawn(process.execPath, [...(opts.nodeArgs ?? []), ...argv], {
    env: { ...process.env, SKIFF_LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.add(child);
  relayStderr(child, env.SKIFF_SERVICE_ENTRY ?? 'serve');
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  void exited.then(() => children.delete(child));
  const seen: string[] = [];
  const match = await new Promise<RegExpExecArray>((resolve, reject) => {
    let found: RegExpExecArray | null = null;
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      if (found) {
        opts.onLine?.(line);
        return;
      }
      seen.push(line);
      found = ready.exec(line);
      if (found) resolve(found);
    });
    void exited.then(() => reject(new Error(`${argv.join(' ')} exited with ${child.exitCode}`)));
  });
  const pid = child.pid!;
  const proc: NodeProcess = {
    pid,
    peakRssMiB: () => procKiB(pid, 'VmHWM') / 1024,
    rssMiB: () => procKiB(pid, 'VmRSS') / 1024,
    openFds: () => readdirSync(`/proc/${pid}/fd`).length,
    cpuSeconds() {
      const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
      // utime and stime, fields 14 and 15 of stat(5), in USER_HZ (100 on Linux); the command name
      // before them may hold spaces, so count from its closing parenthesis.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      return (Number(fields[11]) + Number(fields[12])) / 100;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const kill = setTimeout(() => child.kill('SIGKILL'), 5_000);
      child.kill('SIGTERM');
      await exited;
      clearTimeout(kill);
    },
  };
  return { proc, match, lines: seen };
}

/**
 * Runs `serve` in its own Node process (not through the tsx wrapper), with the Node flags the
 * product starts it with (`serviceArgs`), so what is measured is what users run.
 */
export async function startServiceProcess(
  args: string[],
  env: NodeJS.ProcessEnv = {},
  opts: SpawnOptions = {},
): Promise<ServiceProcess> {
  const { proc, match } = await startNodeScript(
    serviceArgs(args),
    env,
    /^listening on (http:\/\/\S+)$/,
    opts,
  );
  return { ...proc, url: match[1]! };
}
