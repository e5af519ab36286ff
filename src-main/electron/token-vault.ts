import type { SafeStorage } from 'electron';

export type VaultKind = 'os-keychain' | 'memory';

export interface TokenVault {
  kind: VaultKind;
  /** The OS backend safeStorage reported (e.g. gnome_libsecret, basic_text, keychain). */
  backend: string;
  seal(secret: string): string | null;
  open(sealed: string): string | null;
}

/**
 * safeStorage is only a secret store when the OS backs it. On Linux without a keyring Chromium
 * falls back to `basic_text`, a fixed key anyone can read, so we keep the token in memory only.
 */
export function createTokenVault(
  safeStorage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString'> & {
    getSelectedStorageBackend?: () => string;
  },
  platform: NodeJS.Platform,
): TokenVault {
  const backend =
    platform === 'linux'
      ? (safeStorage.getSelectedStorageBackend?.() ?? 'unknown')
      : platform === 'darwin'
        ? 'keychain'
        : 'dpapi';
  const usable = safeStorage.isEncryptionAvailable() && backend !== 'basic_text' && backend !== 'unknown';
  if (!usable) return { kind: 'memory', backend, seal: () => null, open: () => null };
  return {
    kind: 'os-keychain',
    backend,
    seal: (secret) => safeStorage.encryptString(secret).toString('base64'),
    open: (sealed) => {
      try {
        return safeStorage.decryptString(Buffer.from(sealed, 'base64'));
      } catch {
        return null;
      }
    },
  };
}
