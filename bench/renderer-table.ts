import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { chromium } from '@playwright/test';
import type { Simulator } from '../src-main/simulator/index';
import { BENCH_PASSWORD } from './list-pods';
import { startServiceProcess } from './service-process';
import { median, ms, table } from './stats';

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const ROUNDS = 3;

interface Round {
  dataToPaint: number;
  viewToPaint: number;
  frames: number[];
  longFrames: number[];
}

/** Issue 4's renderer figure: a 10,000-pod table in Chromium, from data to first paint, then scrolling. */
export async function benchRendererTable(sim: Pick<Simulator, 'kubeconfigYaml'>, dir: string): Promise<void> {
  if (!existsSync('out/renderer/index.html')) {
    spawnSync('npx', ['electron-vite', 'build'], { stdio: ['ignore', 'ignore', 'inherit'] });
  }
  const kubeconfig = `${dir}/kubeconfig-ui`;
  await writeFile(kubeconfig, sim.kubeconfigYaml('bench'));
  const svc = await startServiceProcess(
    ['--port', '0', '--kubeconfig', kubeconfig, '--data-dir', `${dir}/ui-data`],
    {
      SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD,
    },
  );
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  const rounds: Round[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
    // tsx compiles with keepNames, which wraps functions passed to page.evaluate in __name().
    await page.addInitScript('window.__name = (f) => f');
    await page.goto(`${svc.url}/#ws=default&cl=bench&area=resources&kind=namespace`);
    await page.getByLabel('Username').fill('admin');
    await page.getByLabel('Password').fill(BENCH_PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('navigation', { name: 'Main' }).waitFor();
    for (let i = 0; i < ROUNDS; i++) {
      // Away to a small list, then to all 10,000 pods, so each round paints the big table afresh.
      await page.evaluate(() => {
        window.location.hash = '#ws=default&cl=bench&area=resources&kind=namespace';
      });
      await page.locator('table[role=grid]').first().waitFor();
      rounds.push(await measureRound(page));
    }
  } finally {
    await browser.close();
    await svc.stop();
  }

  const all = rounds.flatMap((r) => r.frames).sort((a, b) => a - b);
  const pct = (p: number) => all[Math.min(all.length - 1, Math.floor(p * all.length))] ?? 0;
  // Headless Chromium without a GPU paces frames at its own cadence (30 Hz here), so a frame is
  // late when it takes longer than that cadence, not longer than 16.7 ms.
  const cadence = median(all);
  const late = all.filter((f) => f > 1.5 * cadence).length;
  const loaf = rounds.flatMap((r) => r.longFrames);
  console.log(
    `\nRenderer: 10,000-pod table in Chromium (median of ${ROUNDS} rounds; frames over all rounds)\n`,
  );
  console.log(
    table([
      {
        measure: 'last list response → first paint of the table',
        value: ms(median(rounds.map((r) => r.dataToPaint))),
      },
      {
        measure: 'view switch → first paint (fetch 10 pages + render)',
        value: ms(median(rounds.map((r) => r.viewToPaint))),
      },
      { measure: 'scrolling: frames measured', value: String(all.length) },
      { measure: 'scrolling: frame time p50', value: ms(pct(0.5)) },
      { measure: 'scrolling: frame time p95', value: ms(pct(0.95)) },
      { measure: 'scrolling: frame time max', value: ms(all.at(-1) ?? 0) },
      { measure: 'p95 ÷ frame cadence (1.0 = no frame late)', value: (pct(0.95) / cadence).toFixed(2) },
      {
        measure: 'late frames (> 1.5× cadence)',
        value: `${late} (${((100 * late) / Math.max(1, all.length)).toFixed(1)} %)`,
      },
      { measure: 'long animation frames (> 50 ms, LoAF API)', value: String(loaf.length) },
      { measure: 'longest animation frame', value: ms(Math.max(0, ...loaf)) },
    ]),
  );
}

async function measureRound(page: import('@playwright/test').Page): Promise<Round> {
  await page.evaluate(() => {
    performance.setResourceTimingBufferSize(10_000);
    performance.clearResourceTimings();
    const w = window as unknown as { __bench: { start: number; paintAt?: number } };
    w.__bench = { start: performance.now() };
    const seen = () => document.querySelector('table[role=grid][aria-rowcount="10001"] tbody tr') !== null;
    const obs = new MutationObserver(() => {
      if (!seen()) return;
      obs.disconnect();
      // Two frames later the rows have been painted at least once.
      requestAnimationFrame(() =>
        requestAnimationFrame(() => {
          w.__bench.paintAt = performance.now();
        }),
      );
    });
    obs.observe(document.body, { childList: true, subtree: true, attributes: true });
    window.location.hash = '#ws=default&cl=bench&area=resources&kind=pod';
  });
  await page.waitForFunction(
    () => (window as unknown as { __bench: { paintAt?: number } }).__bench.paintAt !== undefined,
    undefined,
    {
      timeout: 60_000,
    },
  );
  const timing = await page.evaluate(() => {
    const w = window as unknown as { __bench: { start: number; paintAt: number } };
    const lists = performance
      .getEntriesByType('resource')
      .filter((e) => e.name.includes('/kubernetes-proxy/pod')) as PerformanceResourceTiming[];
    const lastData = Math.max(...lists.map((e) => e.responseEnd));
    return { dataToPaint: w.__bench.paintAt - lastData, viewToPaint: w.__bench.paintAt - w.__bench.start };
  });
  const { frames, longFrames } = await page.evaluate(
    () =>
      new Promise<{ frames: number[]; longFrames: number[] }>((resolve) => {
        const longFrames: number[] = [];
        const po = new PerformanceObserver((list) => {
          for (const e of list.getEntries()) longFrames.push(e.duration);
        });
        po.observe({ type: 'long-animation-frame', buffered: false });
        const scroller = document
          .querySelector('table[role=grid][aria-rowcount="10001"]')!
          .closest('.vt') as HTMLElement;
        const deltas: number[] = [];
        let last = performance.now();
        const end = last + 3_000;
        const step = (t: number) => {
          deltas.push(t - last);
          last = t;
          scroller.scrollTop += 480;
          if (scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight) scroller.scrollTop = 0;
          if (t < end) requestAnimationFrame(step);
          else {
            po.disconnect();
            resolve({ frames: deltas.slice(1), longFrames });
          }
        };
        requestAnimationFrame(step);
      }),
  );
  return { ...timing, frames, longFrames };
}
