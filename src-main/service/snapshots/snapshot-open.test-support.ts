import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Pod } from '@skiff/kube-simulator';
import { DEMO_PODS, type KubeObject, startSimulator } from '@skiff/kube-simulator';
import { afterAll, beforeAll } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import { createService, type Service, type ServiceConfig } from '../index';
import { silentLogger } from '../logger';
import { checkAnswer } from '../test-support/contract-check.test-support';
import { type LoggedIn, login, TEST_ADMIN_PASSWORD } from '../test-support/login.test-support';
import { type FixtureSummary, writeSnapshotFixture } from './open-fixture.test-support';

/**
 * Test support for opening snapshots: a fixture file captured from the demo simulator, which is
 * then stopped, so whatever the service answers afterwards comes from the file alone.
 */

export const TAKEN_AT = '2026-03-01T12:00:00Z';
export const CONTEXT = 'prod-eu';
/** Every third event (by uid) is one the cluster had dropped: written as history (expired = 1). */
export const isExpired = (e: KubeObject) => e.metadata.uid.charCodeAt(e.metadata.uid.length - 1) % 3 === 0;

export const LOG_PODS = [DEMO_PODS.crashLoop, DEMO_PODS.checkout, DEMO_PODS.oomKilled];

/** What the captured cluster held, to compare answers with. */
export interface Captured {
  pods: Pod[];
  events: KubeObject[];
  summary: FixtureSummary;
}

export async function captureFixture(path: string): Promise<Captured> {
  const sim = await startSimulator({ tickMs: false });
  try {
    const summary = await writeSnapshotFixture(sim, path, {
      context: CONTEXT,
      takenAt: TAKEN_AT,
      expired: isExpired,
      logPods: LOG_PODS,
    });
    return {
      pods: sim.store.list('pods').map((p) => structuredClone(p) as Pod),
      events: sim.store.list('events').map((e) => structuredClone(e)),
      summary,
    };
  } finally {
    await sim.close();
  }
}

/** A temp dir holding `good.skiff`, a capture (captureFixture); its fields are set by beforeAll. */
export interface FixtureDir {
  dir: string;
  good: string;
}

/**
 * Registers the calling test file's beforeAll (a temp dir named from `prefix`, `good.skiff`
 * captured in it) and afterAll (the dir removed): the fixture file the file's tests open.
 */
export function fixtureDirPerFile(prefix: string): FixtureDir {
  const fx: FixtureDir = { dir: '', good: '' };
  beforeAll(async () => {
    fx.dir = await mkdtemp(join(tmpdir(), prefix));
    fx.good = join(fx.dir, 'good.skiff');
    await captureFixture(fx.good);
  });
  afterAll(() => rm(fx.dir, { recursive: true, force: true }));
  return fx;
}

export interface Answer<T = unknown> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

export interface OpenStack {
  dir: string;
  url: string;
  service: Service;
  admin: LoggedIn;
  call<T = unknown>(
    method: string,
    path: string,
    init?: { headers?: Record<string, string>; body?: BodyInit },
  ): Promise<Answer<T>>;
  close(): Promise<void>;
}

/** A service with no kubeconfig cluster at all, over real HTTP, every answer checked against the contract. */
export async function startOpenStack(config: Partial<ServiceConfig> = {}): Promise<OpenStack> {
  const dir = await mkdtemp(join(tmpdir(), 'skiff-open-'));
  const service = createService({
    contexts: [],
    dataDir: join(dir, 'data'),
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    ...config,
  });
  const { url } = await service.listen(0, '127.0.0.1');
  const admin = await login(url);
  return {
    dir,
    url,
    service,
    admin,
    async call<T>(
      method: string,
      path: string,
      init: { headers?: Record<string, string>; body?: BodyInit } = {},
    ) {
      const res = await fetch(url + path, {
        method,
        headers: { ...admin.headers, ...init.headers },
        ...(init.body !== undefined ? { body: init.body, duplex: 'half' } : {}),
      } as RequestInit);
      const text = await res.text();
      const contentType = res.headers.get('content-type') ?? '';
      const body = (contentType.includes('json') && text !== '' ? JSON.parse(text) : text) as T;
      checkAnswer(method, path, res.status, contentType, body);
      return { status: res.status, headers: res.headers, body, text };
    },
    async close() {
      await service.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}

export type { Cluster };
