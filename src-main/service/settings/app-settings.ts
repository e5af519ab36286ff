import { z } from 'zod';
import type { AppSettings, AppSettingsPatch } from '../../../src-shared/contract/settings-models';
import { ProblemError } from '../errors';
import type { KeyValueStore } from '../storage/store';

/**
 * Settings kept by the service and read at start: the kubeconfig files and token lifetimes. Their
 * store is the database's service_settings (settings/service-settings.ts), shared by replicas.
 */
const storedSchema = z.object({
  kubeconfigPaths: z.array(z.string()).optional(),
  accessTokenMinutes: z.number().int().min(15).max(60).optional(),
  refreshTokenDays: z.number().int().min(1).max(365).optional(),
});
export type StoredAppSettings = z.output<typeof storedSchema>;

const KEY = 'appSettings';

export function readStoredAppSettings(store: KeyValueStore): StoredAppSettings {
  const parsed = storedSchema.safeParse(store.get(KEY) ?? {});
  return parsed.success ? parsed.data : {};
}

/**
 * What hosts the service: `serve` (web mode, where the API is the server itself) or the Electron
 * shell (desktop, where the local API can be switched off and tokens may live in the keychain).
 */
export interface AppHost {
  mode: 'desktop' | 'web';
  localApi(): AppSettings['localApi'];
  setLocalApi?(patch: { enabled?: boolean; port?: number }): Promise<void>;
  tokenStorage(): AppSettings['tokenStorage'];
}

export interface AppSettingsDeps {
  store: KeyValueStore;
  /** Resolves once what was set is stored (the database's settings); a refusal rejects. */
  saved?: () => Promise<void>;
  host: () => AppHost;
  /** What this run actually uses, so the view can say when a restart is needed. */
  active: { kubeconfigPaths: readonly string[]; accessTokenMinutes: number; refreshTokenDays: number };
}

export function describeAppSettings(deps: AppSettingsDeps): AppSettings {
  const stored = readStoredAppSettings(deps.store);
  const host = deps.host();
  const paths = stored.kubeconfigPaths ?? [...deps.active.kubeconfigPaths];
  const access = stored.accessTokenMinutes ?? deps.active.accessTokenMinutes;
  const refresh = stored.refreshTokenDays ?? deps.active.refreshTokenDays;
  return {
    mode: host.mode,
    localApi: host.localApi(),
    tokenStorage: host.tokenStorage(),
    kubeconfig: {
      paths,
      active: [...deps.active.kubeconfigPaths],
      restartRequired: JSON.stringify(paths) !== JSON.stringify(deps.active.kubeconfigPaths),
    },
    tokens: {
      accessTokenMinutes: access,
      refreshTokenDays: refresh,
      restartRequired: access !== deps.active.accessTokenMinutes || refresh !== deps.active.refreshTokenDays,
    },
  };
}

export async function updateAppSettings(
  deps: AppSettingsDeps,
  patch: AppSettingsPatch,
): Promise<AppSettings> {
  // A refused patch changes nothing: the local API is checked before any field is kept.
  const host = deps.host();
  if (patch.localApi && !host.setLocalApi) {
    throw new ProblemError(
      'conflict',
      'the local API is this server itself in web mode; it cannot be changed here',
    );
  }
  const stored = readStoredAppSettings(deps.store);
  const next: StoredAppSettings = {
    ...stored,
    ...(patch.kubeconfig ? { kubeconfigPaths: patch.kubeconfig.paths } : {}),
    ...(patch.tokens?.accessTokenMinutes !== undefined
      ? { accessTokenMinutes: patch.tokens.accessTokenMinutes }
      : {}),
    ...(patch.tokens?.refreshTokenDays !== undefined
      ? { refreshTokenDays: patch.tokens.refreshTokenDays }
      : {}),
  };
  deps.store.set(KEY, next);
  // Answered once stored: a setting the database refused is an error, not a success.
  await deps.saved?.();
  if (patch.localApi) await host.setLocalApi?.(patch.localApi);
  return describeAppSettings(deps);
}
