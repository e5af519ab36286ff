import { mkdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { HOSTILE_FILES } from '../src-main/service/snapshots/hostile-files.test-support';
import { login } from '../src-main/service/test-support/login.test-support';
import { SNAPSHOT_MEDIA_TYPE } from '../src-shared/contract/snapshot-operations';
import { BENCH_PASSWORD } from './list-pods';
import { startServiceProcess } from './service-process';
import { ms, percentile, table, type Verdict } from './stats';

/**
 * /v1/health while hostile snapshots are uploaded (issue 22 §1): a service process of its own, the
 * hostile files of the tests (views that never end, a 5 MB context, a 9 MiB object, ...) uploaded
 * one after another with POST /v1/snapshots, each answered 400, health asked all the while.
 * Health is asked over one kept-alive connection, one request at a time: first with the service
 * idle (the baseline), then during the uploads. The target is p99 ≤ 100 ms during the uploads;
 * the ratio to the idle p99 of the same run says how much of it the uploads cost.
 */

const TARGET_MS = 100;

export interface HostileUploadFigures {
  idleP99: number;
  duringP99: number;
  uploads: number;
}

async function healthLatencies(url: string, agent: Agent, count: number): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < count; i++) {
    const t = performance.now();
    const res = await request(`${url}/v1/health`, { dispatcher: agent });
    await res.body.text();
    if (res.statusCode !== 200) throw new Error(`/v1/health answered ${res.statusCode}`);
    out.push(performance.now() - t);
  }
  return out;
}

export async function benchHostileUploads(
  dir: string,
  scale: { requests: number; warmup: number },
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<HostileUploadFigures> {
  await mkdir(dir, { recursive: true });
  const bodies: Buffer[] = [];
  for (const [i, hostile] of HOSTILE_FILES.entries()) {
    const path = join(dir, `hostile-${i}.skiff`);
    hostile.build(path);
    bodies.push(await readFile(path));
  }
  const svc = await startServiceProcess(
    ['--host', '127.0.0.1', '--port', '0', '--data-dir', join(dir, 'data')],
    { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD, KUBECONFIG: '', HOME: dir },
  );
  const health = new Agent({ connections: 1, pipelining: 1 });
  const uploads = new Agent({ connections: 1, pipelining: 1 });
  try {
    const { headers } = await login(svc.url, 'admin', BENCH_PASSWORD);
    await healthLatencies(svc.url, health, scale.warmup);
    const idle = await healthLatencies(svc.url, health, scale.requests);
    // Every hostile file once, one after another; health is asked all the while, and at least
    // as often as when idle.
    let sent = 0;
    let uploadsDone = false;
    const uploading = (async () => {
      try {
        for (const body of bodies) {
          const res = await request(`${svc.url}/v1/snapshots`, {
            method: 'POST',
            headers: { ...headers, 'content-type': SNAPSHOT_MEDIA_TYPE },
            body,
            dispatcher: uploads,
          });
          await res.body.text();
          if (res.statusCode !== 400) throw new Error(`a hostile upload answered ${res.statusCode}`);
          sent++;
        }
      } finally {
        uploadsDone = true;
      }
    })();
    const during: number[] = [];
    while (!uploadsDone || during.length < scale.requests)
      during.push(...(await healthLatencies(svc.url, health, 1)));
    await uploading;
    const figures = { idleP99: percentile(idle, 99), duringP99: percentile(during, 99), uploads: sent };
    console.log(
      `\n/v1/health while hostile snapshots are uploaded (${sent} uploads, all 400; ${during.length} health requests)\n`,
    );
    console.log(
      table([
        {
          'idle p50': ms(percentile(idle, 50)),
          'idle p99': ms(figures.idleP99),
          'during p50': ms(percentile(during, 50)),
          'during p99': ms(figures.duringP99),
          'p99 ratio': `${(figures.duringP99 / figures.idleP99).toFixed(1)}×`,
        },
      ]),
    );
    verdicts.push({
      figure: `/v1/health p99 during hostile snapshot uploads (idle p99 ${ms(figures.idleP99)})`,
      measured: `${ms(figures.duringP99)} (${(figures.duringP99 / figures.idleP99).toFixed(1)}× idle)`,
      target: `≤ ${TARGET_MS} ms`,
      pass: judge(figures.duringP99 <= TARGET_MS),
    });
    return figures;
  } finally {
    await health.close();
    await uploads.close();
    await svc.stop();
  }
}
