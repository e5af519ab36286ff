import { z } from 'zod';

/** Application settings as the Settings view shows them. Some only apply in the desktop app. */
export const appSettings = z
  .strictObject({
    mode: z.enum(['desktop', 'web']),
    localApi: z
      .strictObject({
        enabled: z.boolean(),
        port: z.number().int(),
        url: z.string().nullable(),
        editable: z.boolean(),
      })
      .meta({
        description:
          'The local /v1 HTTP API for scripts. In web mode it is the server itself and cannot be turned off.',
      }),
    tokenStorage: z
      .strictObject({
        kind: z.enum(['os-keychain', 'memory', 'browser-memory']),
        backend: z.string(),
        notice: z.string().nullable(),
      })
      .meta({
        description:
          "Where the desktop session's refresh token lives; `notice` explains a memory-only fallback.",
      }),
    kubeconfig: z
      .strictObject({ paths: z.array(z.string()), active: z.array(z.string()), restartRequired: z.boolean() })
      .meta({ description: 'Kubeconfig files read at start; edits apply at the next start.' }),
    tokens: z
      .strictObject({
        accessTokenMinutes: z.number().int(),
        refreshTokenDays: z.number().int(),
        restartRequired: z.boolean(),
      })
      .meta({
        description: 'Token lifetimes for new sessions and refreshes; edits apply at the next start.',
      }),
  })
  .meta({ id: 'AppSettings' });
export type AppSettings = z.infer<typeof appSettings>;

export interface AppSettingsPatch {
  localApi?: { enabled?: boolean; port?: number };
  kubeconfig?: { paths: string[] };
  tokens?: { accessTokenMinutes?: number; refreshTokenDays?: number };
}
