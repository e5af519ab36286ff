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

/** "system" leaves the choice to prefers-color-scheme (the stylesheet's media query); the others pin it. */
function apply(pref: ThemePreference): void {
  if (pref === 'system') document.documentElement.removeAttribute('data-theme');
  else document.documentElement.setAttribute('data-theme', pref);
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
  apply(useTheme.getState().preference);
}
