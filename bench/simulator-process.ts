import { readFileSync } from 'node:fs';
import { type NodeProcess, SERVE_SCRIPT, startNodeScript } from './service-process';

export interface SimulatorProcess extends NodeProcess {
  url: string;
  kubeconfigPath: string;
  /** The kubeconfig the simulator wrote, as `Simulator.kubeconfigYaml` gives it for the in-process one. */
  kubeconfigYaml(contextName?: string): string;
  pods: number;
  events: number;
}

/**
 * The scaled simulator in its own process (the built `out/service/simulator.js`, frozen unless
 * `tickMs` is given), so neither its memory nor its CPU lands in the bench driver or in the measured service.
 */
export async function startSimulatorProcess(opts: {
  pods: number;
  events: number;
  kubeconfigPath: string;
  context: string;
  /** Simulated life every this many milliseconds (crash loops, restarts); frozen without. */
  tickMs?: number;
}): Promise<SimulatorProcess> {
  const args = [
    '--pods',
    String(opts.pods),
    '--events',
    String(opts.events),
    '--tick',
    opts.tickMs ? String(opts.tickMs) : 'off',
    '--kubeconfig',
    opts.kubeconfigPath,
    '--context',
    opts.context,
  ];
  const { proc, lines } = await startNodeScript(
    [SERVE_SCRIPT, ...args],
    { SKIFF_SERVICE_ENTRY: 'simulator' },
    /^pods: (\d+), events: (\d+)/,
  );
  const url = lines.map((l) => /^demo cluster:\s+(\S+)/.exec(l)?.[1]).find(Boolean);
  const counts = /^pods: (\d+), events: (\d+)/.exec(lines.at(-1) ?? '');
  if (!url || !counts) {
    await proc.stop();
    throw new Error(`the simulator printed no URL or counts:\n${lines.join('\n')}`);
  }
  const yaml = readFileSync(opts.kubeconfigPath, 'utf8');
  return {
    ...proc,
    url,
    kubeconfigPath: opts.kubeconfigPath,
    kubeconfigYaml(contextName = opts.context) {
      if (contextName !== opts.context)
        throw new Error(`this simulator's kubeconfig names context "${opts.context}", not "${contextName}"`);
      return yaml;
    },
    pods: Number(counts[1]),
    events: Number(counts[2]),
  };
}
