import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSimulator } from '../src-main/simulator/index';
import { benchListPods } from './list-pods';

/** `npm run bench`: every speed and memory figure in one run, printed as tables with ratios. */
async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-'));
  const sim = await startSimulator({ tickMs: false, scale: { pods: 10_000, events: 100_000 } });
  try {
    await benchListPods(sim, dir, async () => ({}), []);
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
