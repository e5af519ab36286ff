import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { Agent, request } from 'undici';
import { login } from '../src-main/service/test-support/login.test-support';
import { BENCH_PASSWORD } from './list-pods';
import { startServiceProcess } from './service-process';
import { startSimulatorProcess } from './simulator-process';
import { median, ms, percentile, table, type Verdict } from './stats';

/**
 * Issue 26 §2's figures for `--authorize rbac`: the p99 of a pod page with a warm check cache
 * against the same page on a service without it, in the same run on the same simulator (its demo
 * team: skiff:admin bound cluster-wide, skiff:alice only in `shop`); and the cost of a cold check,
 * a single-pod read whose SubjectAccessReview is not yet cached against the same read once it is.
 * Ratios only; everything on loopback, each service and the simulator in processes of their own.
 */

const CLUSTER = 'bench-rbac';
const ALICE_PASSWORD = 'bench-alice-password-01';

interface Client {
  get(path: string): Promise<{ status: number; text: string }>;
  close(): Promise<void>;
}

function client(url: string, auth: Record<string, string>): Client {
  const agent = new Agent({ connections: 1, pipelining: 1 });
  return {
    async get(path) {
      const res = await request(url + path, { headers: auth, dispatcher: agent });
      return { status: res.statusCode, text: await res.body.text() };
    },
    close: () => agent.close(),
  };
}

async function timedGet(c: Client, path: string): Promise<number> {
  const t = performance.now();
  const res = await c.get(path);
  const elapsed = performance.now() - t;
  if (res.status !== 200) throw new Error(`GET ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
  return elapsed;
}

async function pageTimes(c: Client, path: string, requests: number, warmup: number): Promise<number[]> {
  // A cold cache may still be listing: wait for the first 200 (bounded) before measuring.
  const patience = Date.now() + 120_000;
  for (;;) {
    const res = await c.get(path);
    if (res.status === 200) break;
    if (Date.now() > patience || (res.status !== 503 && res.status !== 504))
      throw new Error(`GET ${path} answered ${res.status}: ${res.text.slice(0, 300)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  for (let i = 0; i < warmup; i++) await timedGet(c, path);
  const out: number[] = [];
  for (let i = 0; i < requests; i++) out.push(await timedGet(c, path));
  return out;
}

export async function benchRbac(
  dir: string,
  scale: { pods: number; requests: number; warmup: number },
  verdicts: Verdict[],
  judge: (pass: boolean) => boolean | undefined,
): Promise<void> {
  await mkdir(dir, { recursive: true });
  const sim = await startSimulatorProcess({
    pods: scale.pods,
    events: 1_000,
    kubeconfigPath: join(dir, 'sim-rbac.kubeconfig'),
    context: CLUSTER,
  });
  const started: Array<{ stop(): Promise<void> }> = [sim];
  try {
    const serve = async (name: string, extra: string[]) => {
      const svc = await startServiceProcess(
        [
          '--host',
          '127.0.0.1',
          '--port',
          '0',
          '--kubeconfig',
          sim.kubeconfigPath,
          '--data-dir',
          join(dir, `data-rbac-${name}`),
          ...extra,
        ],
        { SKIFF_ADMIN_PASSWORD: BENCH_PASSWORD },
      );
      started.push(svc);
      const admin = await login(svc.url, 'admin', BENCH_PASSWORD);
      return { svc, admin: client(svc.url, admin.headers) };
    };
    const plain = await serve('none', []);
    const rbac = await serve('rbac', ['--authorize', 'rbac']);
    const created = await fetch(`${rbac.svc.url}/v1/auth/accounts`, {
      method: 'POST',
      headers: {
        ...(await login(rbac.svc.url, 'admin', BENCH_PASSWORD)).headers,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ username: 'alice', password: ALICE_PASSWORD, workspaces: ['default'] }),
    });
    if (created.status !== 201) throw new Error(`creating alice answered ${created.status}`);
    const alice = client(rbac.svc.url, (await login(rbac.svc.url, 'alice', ALICE_PASSWORD)).headers);
    const proxy = `/v1/workspaces/default/observability/${CLUSTER}/kubernetes-proxy`;
    const page = `${proxy}/pod?limit=100`;
    // Interleaved in rounds, so that machine noise lands on every side alike.
    const base: number[] = [];
    const warmAdmin: number[] = [];
    const warmAlice: number[] = [];
    const rounds = 5;
    const per = Math.ceil(scale.requests / rounds);
    for (let r = 0; r < rounds; r++) {
      base.push(...(await pageTimes(plain.admin, page, per, r === 0 ? scale.warmup : 5)));
      warmAdmin.push(...(await pageTimes(rbac.admin, page, per, r === 0 ? scale.warmup : 5)));
      warmAlice.push(...(await pageTimes(alice, page, per, r === 0 ? scale.warmup : 5)));
    }
    // The cold check: single pods read once each (a `get` of that name: a question not asked
    // before, so one review), then each again (its decision cached); the same reads without rbac.
    const names = (
      JSON.parse((await rbac.admin.get(`${proxy}/pod?limit=200`)).text) as {
        resource: { metadata: { name: string; namespace: string } };
      }[]
    ).map((w) => `${proxy}/namespaces/${w.resource.metadata.namespace}/pod/${w.resource.metadata.name}`);
    const cold: number[] = [];
    const warm: number[] = [];
    const off: number[] = [];
    for (const path of names) {
      cold.push(await timedGet(rbac.admin, path));
      warm.push(await timedGet(rbac.admin, path));
      off.push(await timedGet(plain.admin, path));
    }
    await alice.close();
    await plain.admin.close();
    await rbac.admin.close();

    const p99 = (xs: number[]) => percentile(xs, 99);
    const adminRatio = p99(warmAdmin) / p99(base);
    const aliceRatio = p99(warmAlice) / p99(base);
    const coldCost = median(cold) - median(warm);
    console.log(
      `\n--authorize rbac: a page of 100 pods across namespaces (${base.length} requests each, interleaved), ${scale.pods} pods\n`,
    );
    console.log(
      table([
        { measure: 'p99 without --authorize (baseline)', value: ms(p99(base)) },
        { measure: 'p99 with rbac, warm cache, admin (cluster-wide)', value: ms(p99(warmAdmin)) },
        { measure: 'p99 with rbac, warm cache, alice (shop only)', value: ms(p99(warmAlice)) },
        { measure: 'ratio admin ÷ baseline', value: adminRatio.toFixed(2) },
        { measure: 'ratio alice ÷ baseline', value: aliceRatio.toFixed(2) },
        { measure: `single pod, cold check (median of ${cold.length})`, value: ms(median(cold)) },
        { measure: 'single pod, warm check', value: ms(median(warm)) },
        { measure: 'single pod, without --authorize', value: ms(median(off)) },
        { measure: 'cost of a cold check (cold − warm)', value: ms(coldCost) },
      ]),
    );
    verdicts.push({
      figure: 'p99 pod page, rbac warm ÷ none',
      measured: `${adminRatio.toFixed(2)} (alice ${aliceRatio.toFixed(2)})`,
      target: '≤ 1.5',
      pass: judge(adminRatio <= 1.5 && aliceRatio <= 1.5),
    });
    verdicts.push({
      figure: 'cost of a cold RBAC check',
      measured: `${ms(coldCost)} (${(median(cold) / median(warm)).toFixed(1)}× a warm read)`,
      target: 'shown',
      pass: undefined,
    });
  } finally {
    for (const s of started.reverse()) await s.stop();
  }
}
