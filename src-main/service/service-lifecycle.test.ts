import { mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { AppSettings } from '../../src-shared/contract/settings-models';
import { FAST_HASH } from './auth/stack.test-support';
import { DEFAULT_UPLOAD_MAX_BYTES } from './http/upload';
import { createService, type Service, type ServiceConfig } from './index';
import { silentLogger } from './logger';
import { DATABASE_FILE } from './storage/database';
import { DatabaseVersionError, SCHEMA_VERSION } from './storage/migrations';
import { eventually } from './test-support/eventually.test-support';
import { login, TEST_ADMIN_PASSWORD } from './test-support/login.test-support';

/** How a service starts listening and how it closes (service/index.ts), each service made in its test. */
const open: Service[] = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((s) => s.close()));
  vi.unstubAllEnvs();
});

function service(extra: Partial<ServiceConfig> = {}): Service {
  const s = createService({
    contexts: [],
    logger: silentLogger(),
    adminPassword: TEST_ADMIN_PASSWORD,
    auth: { passwordCost: FAST_HASH, onAdminCreated: () => {} },
    ...extra,
  });
  open.push(s);
  return s;
}

const uploadFolders = async () => (await readdir(tmpdir())).filter((n) => n.startsWith('skiff-uploads-'));

/** Sends the head of an upload and part of its body, then keeps the connection open. */
function stalledUpload(url: string, bearer: Record<string, string>): Promise<void> {
  return new Promise((resolve) => {
    const req = request(`${url}/v1/snapshots`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/octet-stream', 'content-length': '1000000' },
    });
    req.on('error', () => {}); // the close below cuts it off
    req.write(Buffer.alloc(1000), () => resolve());
  });
}

describe('listening', () => {
  it('on a port another server holds fails with that error, instead of never answering', async () => {
    const first = await service().listen(0, '127.0.0.1');
    const port = Number(new URL(first.url).port);
    await expect(service().listen(port, '127.0.0.1')).rejects.toMatchObject({ code: 'EADDRINUSE' });
  });

  it('names the first address it listens on as the local API in the settings, not a later one', async () => {
    const s = service();
    const first = await s.listen(0, '127.0.0.1');
    const second = await s.listen(0, '127.0.0.1');
    expect(second.url).not.toBe(first.url);
    const admin = await login(second.url);
    const res = await fetch(`${second.url}/v1/app/settings`, { headers: admin.headers });
    expect(((await res.json()) as AppSettings).localApi.url).toBe(first.url);
  });
});

describe('closing', () => {
  it('stops every server it listens on, without waiting for a client still sending', async () => {
    const s = service();
    const a = await s.listen(0, '127.0.0.1');
    const b = await s.listen(0, '127.0.0.1');
    const admin = await login(a.url);
    await stalledUpload(a.url, admin.headers);
    await eventually(async () => expect(await uploadFolders()).toHaveLength(1));

    await s.close();
    open.splice(open.indexOf(s), 1);
    for (const { url } of [a, b]) {
      await expect(fetch(`${url}/v1/health`)).rejects.toThrow();
    }
    // The folder uploads were written to goes with the service.
    expect(await uploadFolders()).toEqual([]);
  });
});

describe('a service started with nothing configured', () => {
  it('shows web-mode settings: tokens in browser memory, no kubeconfig files, nothing awaiting a restart', async () => {
    const { url } = await service().listen(0, '127.0.0.1');
    const admin = await login(url);
    const settings = (await (
      await fetch(`${url}/v1/app/settings`, { headers: admin.headers })
    ).json()) as AppSettings;
    expect(settings.mode).toBe('web');
    expect(settings.tokenStorage).toMatchObject({ kind: 'browser-memory', backend: 'browser' });
    expect(settings.kubeconfig).toEqual({ paths: [], active: [], restartRequired: false });
  });

  it('refuses an upload declared larger than the default limit before reading it', async () => {
    const { url } = await service().listen(0, '127.0.0.1');
    const admin = await login(url);
    const res = await new Promise<{ status: number; body: string }>((resolve, reject) => {
      const req = request(`${url}/v1/snapshots`, {
        method: 'POST',
        headers: {
          ...admin.headers,
          'content-type': 'application/octet-stream',
          'content-length': String(DEFAULT_UPLOAD_MAX_BYTES + 1),
        },
      });
      req.on('response', (r) => {
        let body = '';
        r.setEncoding('utf8');
        r.on('data', (d: string) => {
          body += d;
        });
        r.on('end', () => resolve({ status: r.statusCode ?? 0, body }));
      });
      req.on('error', reject);
      req.flushHeaders();
    });
    expect(res.status).toBe(413);
    expect((JSON.parse(res.body) as { code: string }).code).toBe('payload_too_large');
  });

  it('stamps the tokens it issues with the clock it was given', async () => {
    const at = Date.parse('2026-02-03T04:05:06Z');
    const { url } = await service({ now: () => at }).listen(0, '127.0.0.1');
    const admin = await login(url);
    const claims = JSON.parse(Buffer.from(admin.accessToken.split('.')[1]!, 'base64url').toString()) as {
      iat: number;
    };
    expect(claims.iat).toBe(at / 1000);
  });
});

describe('what a service is started with', () => {
  it('takes the first admin password from SKIFF_ADMIN_PASSWORD when none is configured', async () => {
    vi.stubEnv('SKIFF_ADMIN_PASSWORD', 'from-the-environment-42');
    const s = createService({ contexts: [], logger: silentLogger() });
    open.push(s);
    const { url } = await s.listen(0, '127.0.0.1');
    const admin = await login(url, 'admin', 'from-the-environment-42');
    expect(admin.accessToken).not.toBe('');
  });

  it('serves the built UI from staticDir beside the API', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'ui-'));
    try {
      await writeFile(join(dir, 'index.html'), '<!doctype html><title>Skiff UI</title>');
      const { url } = await service({ staticDir: dir }).listen(0, '127.0.0.1');
      const page = await fetch(`${url}/index.html`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('Skiff UI');
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('its storage', () => {
  it('is opened by createService itself: a data dir from a newer Skiff fails it at once, before anything runs', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'skiff-newer-'));
    try {
      const db = new DatabaseSync(join(dir, DATABASE_FILE));
      db.exec(`PRAGMA user_version = ${SCHEMA_VERSION + 1}`);
      db.close();
      expect(() => createService({ contexts: [], dataDir: dir, logger: silentLogger() })).toThrow(
        DatabaseVersionError,
      );
      // Nothing was started that would write there: the folder holds only the file it refused.
      expect(await readdir(dir)).toEqual([DATABASE_FILE]);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
