import { describe, expect, it } from 'vitest';
import { isAllowedExternal, isAppUrl } from './navigation-policy';

describe('navigation policy', () => {
  it('keeps the window on the app', () => {
    const app = 'file:///opt/skiff/out/renderer/index.html';
    expect(isAppUrl('file:///opt/skiff/out/renderer/index.html#/events', app)).toBe(true);
    expect(isAppUrl('file:///etc/passwd', app)).toBe(false);
    expect(isAppUrl('https://evil.example/', app)).toBe(false);
    expect(isAppUrl('http://localhost:5173/x', 'http://localhost:5173/')).toBe(true);
    expect(isAppUrl('http://localhost:5174/', 'http://localhost:5173/')).toBe(false);
    expect(isAppUrl('not a url', app)).toBe(false);
  });

  it('lets only plain https links out', () => {
    expect(isAllowedExternal('https://kubernetes.io/docs/')).toBe(true);
    expect(isAllowedExternal('http://kubernetes.io/')).toBe(false);
    expect(isAllowedExternal('file:///etc/passwd')).toBe(false);
    expect(isAllowedExternal('javascript:alert(1)')).toBe(false);
    expect(isAllowedExternal('https://user:pw@example.com/')).toBe(false);
  });
});
