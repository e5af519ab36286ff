import { create } from 'zustand';

export type ThemePreference = 'system' | 'light' | 'dark';

const KEY = 'skiff.theme';

function stored(): ThemePreference {
  try {
    const v = window.localStorage.getItem(KEY);
    return v === 'light' || v === 'dark' ? v : 'system';
  } catch {
    return 'system';
  }
}

const systemDark = () => window.matchMedia?.('(prefers-color-scheme: dark)');

/**
 * The page always carries a resolved data-theme, so the stylesheet defines the dark palette once.
 * "system" follows prefers-color-scheme, also when it changes while the window is open.
 */
function apply(pref: ThemePreference): void {
  const resolved = pref === 'system' ? (systemDark()?.matches ? 'dark' : 'light') : pref;
  document.documentElement.setAttribute('data-theme', resolved);
}

let following = false;
function followSystem(): void {
  if (following) return;
  following = true;
  systemDark()?.addEventListener('change', () => {
    if (useTheme.getState().preference === 'system') apply('system');
  });
}

interface ThemeState {
  preference: ThemePreference;
  set(pref: ThemePreference): void;
  cycle(): void;
}

export const useTheme = create<ThemeState>()((set, get) => ({
  preference: typeof window === 'undefined' ? 'system' : stored(),
  set(pref) {
    try {
      window.localStorage.setItem(KEY, pref);
    } catch {
      // Storage can be disabled; the choice then lasts for this window only.
    }
    apply(pref);
    set({ preference: pref });
  },
  cycle() {
    const order: ThemePreference[] = ['system', 'light', 'dark'];
    get().set(order[(order.indexOf(get().preference) + 1) % order.length]!);
  },
}));

export function applyStoredTheme(): void {
  followSystem();
  apply(useTheme.getState().preference);
}
