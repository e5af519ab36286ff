import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { login } from '../src-main/service/test/login';
import { startSimulator } from '../src-main/simulator/index';
import { BENCH_PASSWORD, benchListPods } from './list-pods';
import { benchLogsViewer } from './logs-viewer';
import { benchRendererTable } from './renderer-table';

/** `npm run bench`: every speed and memory figure in one run, printed as tables with ratios. */
async function main() {
  const dir = await mkdtemp(join(tmpdir(), 'skiff-bench-'));
  const sim = await startSimulator({ tickMs: false, scale: { pods: 10_000, events: 100_000 } });
  try {
    await benchListPods(sim, dir, async (url) => (await login(url, 'admin', BENCH_PASSWORD)).headers, []);
    await benchRendererTable(sim, dir);
  } finally {
    await sim.close();
    await rm(dir, { recursive: true, force: true });
  }
  await benchLogsViewer();
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
