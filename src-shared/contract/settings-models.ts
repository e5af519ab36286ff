/** Application settings as the Settings view shows them. Some only apply in the desktop app. */
export interface AppSettings {
  mode: 'desktop' | 'web';
  /** The local /v1 HTTP API for scripts. In web mode it is the server itself and cannot be turned off. */
  localApi: { enabled: boolean; port: number; url: string | null; editable: boolean };
  /** Where the desktop session's refresh token lives; `notice` explains a memory-only fallback. */
  tokenStorage: { kind: 'os-keychain' | 'memory' | 'browser-memory'; backend: string; notice: string | null };
  /** Kubeconfig files read at start; edits apply at the next start. */
  kubeconfig: { paths: string[]; active: string[]; restartRequired: boolean };
  /** Token lifetimes for new sessions and refreshes; edits apply at the next start. */
  tokens: { accessTokenMinutes: number; refreshTokenDays: number; restartRequired: boolean };
}

export interface AppSettingsPatch {
  localApi?: { enabled?: boolean; port?: number };
  kubeconfig?: { paths: string[] };
  tokens?: { accessTokenMinutes?: number; refreshTokenDays?: number };
}
