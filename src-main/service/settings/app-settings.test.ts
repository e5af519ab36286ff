import { describe, expect, it } from 'vitest';
import type { AppSettings } from '../../../src-shared/contract/settings-models';
import { ProblemError } from '../errors';
import { memoryStore } from '../storage/store';
import { type AppHost, type AppSettingsDeps, describeAppSettings, updateAppSettings } from './app-settings';

/** A host whose local API can be switched (desktop) or not (web), recording what it was asked. */
function host(mode: AppHost['mode']) {
  const calls: Array<{ enabled?: boolean; port?: number }> = [];
  let localApi: AppSettings['localApi'] = {
    enabled: true,
    port: 7420,
    url: null,
    editable: mode === 'desktop',
  };
  const h: AppHost = {
    mode,
    localApi: () => localApi,
    tokenStorage: () => ({ kind: 'memory', backend: 'test', notice: null }),
    ...(mode === 'desktop'
      ? {
          async setLocalApi(patch: { enabled?: boolean; port?: number }) {
            calls.push(patch);
            localApi = { ...localApi, ...patch };
          },
        }
      : {}),
  };
  return { h, calls };
}

function deps(mode: AppHost['mode'] = 'desktop'): AppSettingsDeps & { calls: unknown[] } {
  const { h, calls } = host(mode);
  return {
    store: memoryStore(),
    host: () => h,
    active: { kubeconfigPaths: ['/etc/b.yaml', '/etc/a.yaml'], accessTokenMinutes: 20, refreshTokenDays: 7 },
    calls,
  };
}

describe('kubeconfig paths', () => {
  it('show the active ones, in their order, until other paths are kept', () => {
    const d = deps();
    expect(describeAppSettings(d).kubeconfig).toEqual({
      paths: ['/etc/b.yaml', '/etc/a.yaml'],
      active: ['/etc/b.yaml', '/etc/a.yaml'],
      restartRequired: false,
    });
  });

  it('need a restart once kept paths differ from the active ones, even only in order', async () => {
    const d = deps();
    const reordered = await updateAppSettings(d, { kubeconfig: { paths: ['/etc/a.yaml', '/etc/b.yaml'] } });
    expect(reordered.kubeconfig).toEqual({
      paths: ['/etc/a.yaml', '/etc/b.yaml'],
      active: ['/etc/b.yaml', '/etc/a.yaml'],
      restartRequired: true,
    });
    const back = await updateAppSettings(d, { kubeconfig: { paths: ['/etc/b.yaml', '/etc/a.yaml'] } });
    expect(back.kubeconfig.restartRequired).toBe(false);
  });
});

describe('token lifetimes', () => {
  it('need a restart when either lifetime differs from the running one, and not when both are back', async () => {
    const d = deps();
    expect(describeAppSettings(d).tokens).toEqual({
      accessTokenMinutes: 20,
      refreshTokenDays: 7,
      restartRequired: false,
    });
    const refreshOnly = await updateAppSettings(d, { tokens: { refreshTokenDays: 30 } });
    expect(refreshOnly.tokens).toEqual({
      accessTokenMinutes: 20,
      refreshTokenDays: 30,
      restartRequired: true,
    });
    const both = await updateAppSettings(d, { tokens: { accessTokenMinutes: 45 } });
    expect(both.tokens).toEqual({ accessTokenMinutes: 45, refreshTokenDays: 30, restartRequired: true });
    const back = await updateAppSettings(d, { tokens: { accessTokenMinutes: 20, refreshTokenDays: 7 } });
    expect(back.tokens.restartRequired).toBe(false);
  });

  it('keep what a patch leaves out', async () => {
    const d = deps();
    await updateAppSettings(d, { tokens: { accessTokenMinutes: 30, refreshTokenDays: 90 } });
    await updateAppSettings(d, { kubeconfig: { paths: ['/k.yaml'] } });
    const later = describeAppSettings(d);
    expect([later.tokens.accessTokenMinutes, later.tokens.refreshTokenDays]).toEqual([30, 90]);
    expect(later.kubeconfig.paths).toEqual(['/k.yaml']);
  });
});

describe('kept settings', () => {
  it('that no longer parse are ignored as a whole: the active values show, with no restart asked', () => {
    const d = deps();
    d.store.set('appSettings', { kubeconfigPaths: ['/x.yaml'], accessTokenMinutes: 5 });
    const shown = describeAppSettings(d);
    expect(shown.kubeconfig.paths).toEqual(['/etc/b.yaml', '/etc/a.yaml']);
    expect(shown.tokens).toEqual({ accessTokenMinutes: 20, refreshTokenDays: 7, restartRequired: false });
  });
});

describe('the local API', () => {
  it('is switched through the desktop host, after the other fields of the patch are kept', async () => {
    const d = deps('desktop');
    const after = await updateAppSettings(d, {
      localApi: { enabled: false },
      tokens: { refreshTokenDays: 3 },
    });
    expect(d.calls).toEqual([{ enabled: false }]);
    expect(after.localApi.enabled).toBe(false);
    expect(after.tokens.refreshTokenDays).toBe(3);
  });

  it('cannot be changed in web mode: a conflict, and the rest of the patch is not kept either', async () => {
    const d = deps('web');
    const refused = updateAppSettings(d, { localApi: { port: 9000 }, tokens: { accessTokenMinutes: 50 } });
    await expect(refused).rejects.toBeInstanceOf(ProblemError);
    await expect(refused).rejects.toMatchObject({ code: 'conflict' });
    expect(describeAppSettings(d).tokens.accessTokenMinutes).toBe(20);
    expect(d.store.get('appSettings')).toBeUndefined();
  });
});
