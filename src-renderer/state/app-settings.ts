import { create } from 'zustand';
import type { AppSettings, AppSettingsPatch } from '../../src-shared/contract/settings-models';
import { ApiError } from '../api';
import { api } from './connection';

interface AppSettingsState {
  settings: AppSettings | null;
  error: string | null;
  saving: boolean;
  load(): Promise<void>;
  /** Saves a patch; resolves to an error text, or null when it was saved. */
  save(patch: AppSettingsPatch): Promise<string | null>;
}

const text = (err: unknown) => (err instanceof ApiError ? err.problem.detail : (err as Error).message);

/** The service's settings document (local API, kubeconfig files, token lifetimes), shared by the Settings sections. */
export const useAppSettings = create<AppSettingsState>()((set) => ({
  settings: null,
  error: null,
  saving: false,
  async load() {
    try {
      const r = await api().call('getAppSettings', { params: {} });
      set({ settings: r.data, error: null });
    } catch (err) {
      set({ error: text(err) });
    }
  },
  async save(patch) {
    set({ saving: true });
    try {
      const r = await api().call('updateAppSettings', { params: {}, body: patch });
      set({ settings: r.data, saving: false, error: null });
      return null;
    } catch (err) {
      set({ saving: false });
      return text(err);
    }
  },
}));
