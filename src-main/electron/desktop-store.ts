import ElectronStore from 'electron-store';
import { z } from 'zod';

/** What the desktop shell remembers between runs. Validated on read; a bad file falls back to defaults. */
const desktopStateSchema = z.object({
  window: z
    .object({
      x: z.number().int().optional(),
      y: z.number().int().optional(),
      width: z.number().int().min(400).default(1280),
      height: z.number().int().min(300).default(820),
      maximized: z.boolean().default(false),
    })
    .prefault({}),
  /** The page's location.hash, which names the workspace, cluster, view and selection. */
  lastView: z.object({ route: z.string().max(500).optional() }).prefault({}),
  localApi: z
    .object({ enabled: z.boolean().default(true), port: z.number().int().min(0).max(65535).default(7733) })
    .prefault({}),
  lastSessionId: z.string().optional(),
  /** The desktop session's refresh token, encrypted by safeStorage; absent when only memory may hold it. */
  sealedRefreshToken: z.string().optional(),
});

export type DesktopState = z.output<typeof desktopStateSchema>;

export interface DesktopStore {
  read(): DesktopState;
  update(patch: (s: DesktopState) => DesktopState): DesktopState;
}

export function openDesktopStore(cwd: string): DesktopStore {
  const store = new ElectronStore<{ state: unknown }>({ cwd, name: 'desktop', clearInvalidConfig: true });
  const read = (): DesktopState => {
    const parsed = desktopStateSchema.safeParse(store.get('state') ?? {});
    return parsed.success ? parsed.data : desktopStateSchema.parse({});
  };
  return {
    read,
    update(patch) {
      const next = desktopStateSchema.parse(patch(read()));
      store.set('state', next);
      return next;
    },
  };
}
