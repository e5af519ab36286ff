import { homedir } from 'node:os';
import { join } from 'node:path';

/** XDG-style default: $SKIFF_DATA_DIR, else $XDG_CONFIG_HOME/skiff, else ~/.config/skiff. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  if (env.SKIFF_DATA_DIR) return env.SKIFF_DATA_DIR;
  const base = env.XDG_CONFIG_HOME || join(env.HOME ?? homedir(), '.config');
  return join(base, 'skiff');
}
