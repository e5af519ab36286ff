import { readFileSync } from 'node:fs';
import { release } from 'node:os';
import type { ClientSoftware } from './user-agent';

/**
 * How the desktop window's own session describes itself. There is no User-Agent worth parsing
 * in-process, so the app and OS versions come from the process itself.
 */
export interface DesktopClientOptions {
  appName?: string;
  appVersion: string;
  platform?: NodeJS.Platform;
  osRelease?: string;
  /** Contents of /etc/os-release on Linux; read from disk when omitted. */
  osReleaseFile?: string;
}

function macosVersion(darwin: string): string {
  const major = Number.parseInt(darwin, 10);
  // Darwin 20-24 are macOS 11-15; Apple then jumped to 26 with Darwin 25.
  if (major >= 25) return String(major + 1);
  if (major >= 20) return String(major - 9);
  return `10.${major - 4}`;
}

function windowsVersion(nt: string): string {
  const [major, minor, build] = nt.split('.').map(Number);
  if (major === 10 && minor === 0) return (build ?? 0) >= 22000 ? '11' : '10';
  return nt;
}

function linuxDistro(file: string | undefined): { name: string; version: string | null } | null {
  let text = file;
  if (text === undefined) {
    try {
      text = readFileSync('/etc/os-release', 'utf8');
    } catch {
      return null;
    }
  }
  const field = (key: string) => new RegExp(`^${key}="?([^"\\n]*)"?$`, 'm').exec(text ?? '')?.[1] ?? null;
  const name = field('NAME');
  return name ? { name, version: field('VERSION_ID') } : null;
}

export function desktopClientInfo(opts: DesktopClientOptions): ClientSoftware {
  const platform = opts.platform ?? process.platform;
  const rel = opts.osRelease ?? release();
  let os: { name: string | null; version: string | null };
  if (platform === 'darwin') os = { name: 'macOS', version: macosVersion(rel) };
  else if (platform === 'win32') os = { name: 'Windows', version: windowsVersion(rel) };
  else if (platform === 'linux') os = linuxDistro(opts.osReleaseFile) ?? { name: 'Linux', version: rel };
  else os = { name: platform, version: rel };
  return {
    clientType: 'desktop-app',
    device: { type: 'desktop', vendor: null, model: null },
    browser: { name: opts.appName ?? 'Skiff', version: opts.appVersion },
    os,
  };
}
