import { beforeEach, describe, expect, it, vi } from 'vitest';
import type { DesktopState, DesktopStore } from './desktop-store';

/**
 * The window as createMainWindow makes it, with Electron's BrowserWindow replaced by a recorder:
 * the options the constructor receives are what Electron would apply, so the security settings
 * are pinned here, where CI can run them (the Electron e2e observes them from the page).
 */

type Handler = (...args: unknown[]) => unknown;

const made = vi.hoisted(() => ({
  windows: [] as Array<{
    options: Record<string, unknown>;
    loaded: string[];
    contents: Map<string, Handler>;
    openHandler: Handler | null;
  }>,
  opened: [] as string[],
}));

vi.mock('electron', () => {
  class BrowserWindow {
    private readonly record;
    readonly webContents;
    constructor(options: Record<string, unknown>) {
      const contents = new Map<string, Handler>();
      this.record = { options, loaded: [] as string[], contents, openHandler: null as Handler | null };
      made.windows.push(this.record);
      const record = this.record;
      this.webContents = {
        on: (name: string, fn: Handler) => contents.set(name, fn),
        setWindowOpenHandler: (fn: Handler) => {
          record.openHandler = fn;
        },
      };
    }
    once() {}
    on() {}
    maximize() {}
    loadURL(url: string) {
      this.record.loaded.push(url);
      return Promise.resolve();
    }
  }
  return { BrowserWindow, shell: { openExternal: (url: string) => made.opened.push(url) } };
});

const { createMainWindow, rendererUrl, RENDERER_ROOT } = await import('./window');

function storeWith(route?: string): DesktopStore {
  let state = {
    window: { width: 1000, height: 700, maximized: false },
    lastView: route === undefined ? {} : { route },
    localApi: { enabled: true, port: 7733 },
  } as DesktopState;
  return { read: () => state, update: (fn) => (state = fn(state)) };
}

const OPTIONS = { appUrl: 'app://skiff/index.html', icon: '/opt/skiff/resources/icons/512x512.png' };

beforeEach(() => {
  made.windows.length = 0;
  made.opened.length = 0;
});

describe('the main window', () => {
  it('is made with isolation, the sandbox and no Node, written in its constructor', () => {
    createMainWindow(storeWith(), OPTIONS);
    const prefs = made.windows[0]?.options.webPreferences as Record<string, unknown>;
    expect(prefs).toMatchObject({
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      nodeIntegrationInWorker: false,
      nodeIntegrationInSubFrames: false,
      webSecurity: true,
      allowRunningInsecureContent: false,
      experimentalFeatures: false,
      webviewTag: false,
    });
    expect(prefs.preload).toMatch(/preload[/\\]index\.cjs$/);
    // No partition: the app:// handler is registered on the default session, which this window uses.
    expect(prefs).not.toHaveProperty('partition');
    expect(prefs).not.toHaveProperty('session');
  });

  it('carries the icon and loads app://skiff/', () => {
    createMainWindow(storeWith(), OPTIONS);
    const win = made.windows[0]!;
    expect(win.options.icon).toBe(OPTIONS.icon);
    expect(win.loaded).toEqual(['app://skiff/index.html']);
  });

  it('reopens on the last route, on its own origin', () => {
    createMainWindow(storeWith('#/w/default/c/demo/pods'), OPTIONS);
    expect(made.windows[0]!.loaded).toEqual(['app://skiff/index.html#/w/default/c/demo/pods']);
  });

  it('stays on the app: foreign navigation is stopped, https opens outside', () => {
    createMainWindow(storeWith(), OPTIONS);
    const win = made.windows[0]!;
    const navigate = win.contents.get('will-navigate')!;
    const attempt = (url: string) => {
      const event = {
        prevented: false,
        preventDefault() {
          this.prevented = true;
        },
      };
      navigate(event, url);
      return event.prevented;
    };
    expect(attempt('app://skiff/index.html#/events')).toBe(false);
    expect(attempt('file:///etc/passwd')).toBe(true);
    expect(attempt('app://evil/index.html')).toBe(true);
    expect(attempt('https://example.com/')).toBe(true);
    expect(win.openHandler?.({ url: 'https://kubernetes.io/docs/' })).toEqual({ action: 'deny' });
    expect(win.openHandler?.({ url: 'file:///etc/passwd' })).toEqual({ action: 'deny' });
    expect(made.opened).toEqual(['https://kubernetes.io/docs/']);
  });

  it('serves the built renderer from out/renderer, and uses the dev server when one runs', () => {
    expect(RENDERER_ROOT).toMatch(/[/\\]renderer$/);
    try {
      vi.stubEnv('ELECTRON_RENDERER_URL', undefined);
      expect(rendererUrl()).toBe('app://skiff/index.html');
      vi.stubEnv('ELECTRON_RENDERER_URL', 'http://localhost:5173/');
      expect(rendererUrl()).toBe('http://localhost:5173/');
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
