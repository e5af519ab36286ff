import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CoreV1Api, KubeConfig } from '@kubernetes/client-node';
import { type Simulator, type SimulatorOptions, startSimulator } from '@skiff/kube-simulator';
import { createService, type Service, type ServiceConfig } from '../index';
import { loadContexts } from '../kube/kubeconfig';
import { silentLogger } from '../logger';
import { checkAnswer } from './contract-check.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from './login.test-support';

export const CONTEXT = 'sim-test';
export const CLUSTER_ID = 'sim-test';

export interface HttpResult<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  contentType: string;
}

export interface Stack {
  url: string;
  sim: Simulator;
  service: Service;
  dataDir: string;
  kubeconfigPath: string;
  /** The admin's session the helpers send with. */
  session: LoggedIn;
  /** /v1/workspaces/default/observability/sim-test */
  cluster: string;
  get<T = unknown>(path: string, headers?: Record<string, string>): Promise<HttpResult<T>>;
  send<T = unknown>(
    method: string,
    path: string,
    body?: unknown,
    headers?: Record<string, string>,
  ): Promise<HttpResult<T>>;
  /** A client-node client straight to the simulator, to compare with what the service answers. */
  direct(): CoreV1Api;
  close(): Promise<void>;
}

export interface StackOptions {
  simulator?: SimulatorOptions;
  service?: Partial<Omit<ServiceConfig, 'contexts'>>;
  /** The server URL the kubeconfig names instead of the simulator's (a fault proxy in front of it). */
  clusterServer?: (sim: Simulator) => Promise<string>;
  /** The kubeconfig the service reads (context CONTEXT), instead of the simulator's token one. */
  kubeconfig?: (sim: Simulator) => string;
}

/**
 * The service as a user runs it: the simulator reached through a kubeconfig file, loaded the way
 * `serve` loads it, and everything asked over real HTTP.
 */
export async function startStack(opts: StackOptions = {}): Promise<Stack> {
  const sim = await startSimulator({ tickMs: false, ...opts.simulator });
  let dir: string | undefined;
  let service: Service | undefined;
  const stop = async () => {
    try {
      await service?.close();
    } finally {
      await sim.close();
      if (dir) await rm(dir, { recursive: true, force: true });
    }
  };
  try {
    dir = await mkdtemp(join(tmpdir(), 'skiff-it-'));
    return await started(
      sim,
      dir,
      opts,
      (s) => {
        service = s;
      },
      stop,
    );
  } catch (err) {
    // A stack that cannot start (a broken build, a mutant) fails its test but leaves no simulator
    // running and no folder behind.
    await stop().catch(() => {});
    throw err;
  }
}

async function started(
  sim: Simulator,
  dir: string,
  opts: StackOptions,
  created: (service: Service) => void,
  stop: () => Promise<void>,
): Promise<Stack> {
  const kubeconfigPath = join(dir, 'kubeconfig');
  const server = opts.clusterServer ? await opts.clusterServer(sim) : sim.url;
  const kubeconfig = opts.kubeconfig ? opts.kubeconfig(sim) : sim.kubeconfigYaml(CONTEXT);
  await writeFile(kubeconfigPath, kubeconfig.replace(JSON.stringify(sim.url), JSON.stringify(server)));
  const service = createService({
    contexts: loadContexts([kubeconfigPath]),
    dataDir: join(dir, 'data'),
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    ...opts.service,
  });
  created(service);
  const { url } = await service.listen(0, '127.0.0.1');
  const session = await login(url);
  const send = async <T>(
    method: string,
    path: string,
    body?: unknown,
    headers: Record<string, string> = {},
  ) => {
    // Every request is the logged-in admin's unless the test passes its own authorization.
    const init: RequestInit = { method, headers: { ...session.headers, ...headers } };
    if (body !== undefined) {
      init.body = typeof body === 'string' ? body : JSON.stringify(body);
      (init.headers as Record<string, string>)['content-type'] ??= 'application/json';
    }
    const res = await fetch(url + path, init);
    const text = await res.text();
    const contentType = res.headers.get('content-type') ?? '';
    const parsed = contentType.includes('json') && text !== '' ? (JSON.parse(text) as T) : (text as T);
    // Every answer is checked against its operation's result schema (or the problem schema).
    checkAnswer(method, path, res.status, contentType, parsed);
    return { status: res.status, headers: res.headers, body: parsed, contentType };
  };
  return {
    url,
    sim,
    service,
    dataDir: join(dir, 'data'),
    kubeconfigPath,
    session,
    cluster: `/v1/workspaces/default/observability/${CLUSTER_ID}`,
    get: (path, headers) => send('GET', path, undefined, headers),
    send,
    direct() {
      const kc = new KubeConfig();
      kc.loadFromString(sim.kubeconfigYaml(CONTEXT));
      return kc.makeApiClient(CoreV1Api);
    },
    close: stop,
  };
}

/** Follows rel="next" links from a first page and gathers every item. */
export async function collectAll<T>(stack: Stack, path: string): Promise<T[]> {
  const out: T[] = [];
  let next: string | undefined = path;
  while (next) {
    const res: HttpResult<T[]> = await stack.get<T[]>(next);
    if (res.status !== 200)
      throw new Error(`GET ${next} answered ${res.status}: ${JSON.stringify(res.body)}`);
    out.push(...res.body);
    next = parseLinks(res.headers.get('link') ?? '').next;
  }
  return out;
}

export function parseLinks(header: string): Record<string, string> {
  const links: Record<string, string> = {};
  for (const part of header.split(/,\s*(?=<)/)) {
    const m = /^<([^>]+)>;\s*rel="(\w+)"$/.exec(part.trim());
    if (m) links[m[2]!] = m[1]!;
  }
  return links;
}
