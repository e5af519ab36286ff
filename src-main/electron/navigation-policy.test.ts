import { describe, expect, it } from 'vitest';
import { APP_INDEX_URL } from './app-protocol-path';
import { isAllowedExternal, isAppUrl } from './navigation-policy';

describe('navigation policy', () => {
  it('keeps the window on app://skiff/', () => {
    const app = APP_INDEX_URL;
    expect(app).toBe('app://skiff/index.html');
    expect(isAppUrl('app://skiff/index.html#/events', app)).toBe(true);
    expect(isAppUrl('app://skiff/', app)).toBe(true);
    expect(isAppUrl('app://skiff/assets/index.js', app)).toBe(true);
  });

  it('refuses what only looks like the app', () => {
    const app = APP_INDEX_URL;
    // Node's URL says "null" for the origin of every one of these, so origin equality would pass them.
    expect(new URL('evil://skiff/').origin).toBe(new URL(app).origin);
    expect(isAppUrl('evil://skiff/index.html', app)).toBe(false);
    expect(isAppUrl('app://evil/index.html', app)).toBe(false);
    expect(isAppUrl('app://skiff.evil/index.html', app)).toBe(false);
    expect(isAppUrl('app://skiff:1234/index.html', app)).toBe(false);
    expect(isAppUrl('app://user@skiff/index.html', app)).toBe(false);
    expect(isAppUrl('file:///opt/skiff/out/renderer/index.html', app)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isAppUrl('data:text/html,<h1>hi</h1>', app)).toBe(false);
    expect(isAppUrl('blob:app://skiff/1234', app)).toBe(false);
    expect(isAppUrl('https://evil.example/', app)).toBe(false);
    expect(isAppUrl('http://skiff/index.html', app)).toBe(false);
    expect(isAppUrl('not a url', app)).toBe(false);
  });

  it('treats a file: app URL as no app at all', () => {
    const file = 'file:///opt/skiff/out/renderer/index.html';
    expect(isAppUrl(file, file)).toBe(false);
    expect(isAppUrl('file:///etc/passwd', file)).toBe(false);
  });

  it('follows the dev server by origin', () => {
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isAppUrl('app://skiff/index.html', 'http://localhost:5173/')).toBe(false);
  });

  it('lets only plain https links out', () => {
    expect(isAllowedExternal('https://kubernetes.io/docs/')).toBe(true);
    expect(isAllowedExternal('http://kubernetes.io/')).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternal('app://skiff/index.html')).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternal('https://user:pw@example.com/')).toBe(false);
  });

  it('lets the local API reference page out, on loopback only', () => {
    expect(isAllowedExternal('http://127.0.0.1:7733/v1/docs')).toBe(true);
    expect(isAllowedExternal('http://[::1]:7733/v1/docs')).toBe(true);
    expect(isAllowedExternal('http://127.0.0.1:7733/v1/workspaces')).toBe(false);
    expect(isAllowedExternal('http://example.com/v1/docs')).toBe(false);
    expect(isAllowedExternal('http://127.0.0.1:7733/v1/docs?x=1')).toBe(false);
  });
});
