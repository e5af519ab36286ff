import { describe, expect, it } from 'vitest';
import { desktopClientInfo } from './desktop-client';
import { describeUserAgent } from './user-agent';

describe('describeUserAgent', () => {
  it.each([
    ['curl/8.5.0', 'curl', '8.5.0'],
    ['python-requests/2.31.0', 'python-requests', '2.31.0'],
    ['Go-http-client/1.1', 'Go-http-client', '1.1'],
    ['node', 'node', null],
    ['Wget/1.21.4', 'Wget', '1.21.4'],
  ])('shows a script’s product token: %s', (ua, name, version) => {
    expect(describeUserAgent(ua)).toMatchObject({
      clientType: 'script',
      browser: { name, version },
      device: { type: 'unknown' },
    });
  });

  it('reads browsers, OS and devices', () => {
    expect(
      describeUserAgent('Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0'),
    ).toMatchObject({
      clientType: 'browser',
      browser: { name: 'Firefox', version: '125.0' },
      os: { name: 'Ubuntu' },
      device: { type: 'desktop' },
    });
    expect(
      describeUserAgent(
        'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.6367.82 Mobile Safari/537.36',
      ),
    ).toMatchObject({
      os: { name: 'Android', version: '14' },
      device: { type: 'mobile', vendor: 'Samsung', model: 'SM-S918B' },
    });
  });

  it('a header with no text is an unknown client with nothing else known', () => {
    const nothing = {
      clientType: 'unknown',
      device: { type: 'unknown', vendor: null, model: null },
      browser: { name: null, version: null },
      os: { name: null, version: null },
    };
    expect(describeUserAgent(undefined)).toEqual(nothing);
    expect(describeUserAgent('   ')).toEqual(nothing);
  });

  it('spaces around a script’s product token do not hide it', () => {
    expect(describeUserAgent('  curl/8.5.0 ')).toMatchObject({
      clientType: 'script',
      browser: { name: 'curl', version: '8.5.0' },
    });
  });

  it('a header that starts with no product token and names no browser is an unknown client', () => {
    expect(describeUserAgent('(compatible; 42)')).toMatchObject({
      clientType: 'unknown',
      browser: { name: null, version: null },
    });
  });

  it('copes with nothing and with huge headers', () => {
    expect(describeUserAgent(undefined)).toMatchObject({ clientType: 'unknown', browser: { name: null } });
    expect(describeUserAgent('')).toMatchObject({ clientType: 'unknown' });
    const huge = describeUserAgent(`${'x'.repeat(200)}/1 ${'y'.repeat(100_000)}`);
    expect(huge.browser.name!.length).toBeLessThanOrEqual(100);
  });

  it('reads only the first 512 characters of a header', () => {
    // Past the limit nothing is parsed: a product token there names no client.
    expect(describeUserAgent(`${' '.repeat(512)}curl/8.5.0`)).toMatchObject({
      clientType: 'unknown',
      browser: { name: null, version: null },
    });
    expect(describeUserAgent(`${' '.repeat(511)}curl/8.5.0`)).toMatchObject({
      clientType: 'script',
      browser: { name: 'c', version: null },
    });
  });
});

describe('desktopClientInfo', () => {
  it('names the OS the way people do', () => {
    expect(desktopClientInfo({ appVersion: '1.2.3', platform: 'darwin', osRelease: '23.4.0' }).os).toEqual({
      name: 'macOS',
      version: '14',
    });
    expect(desktopClientInfo({ appVersion: '1', platform: 'darwin', osRelease: '25.0.0' }).os.version).toBe(
      '26',
    );
    expect(desktopClientInfo({ appVersion: '1', platform: 'darwin', osRelease: '19.6.0' }).os.version).toBe(
      '10.15',
    );
    expect(desktopClientInfo({ appVersion: '1', platform: 'win32', osRelease: '10.0.22631' }).os).toEqual({
      name: 'Windows',
      version: '11',
    });
    expect(
      desktopClientInfo({ appVersion: '1', platform: 'win32', osRelease: '10.0.19045' }).os.version,
    ).toBe('10');
    expect(
      desktopClientInfo({
        appVersion: '1',
        platform: 'linux',
        osRelease: '6.1.0',
        osReleaseFile: 'NAME="Debian GNU/Linux"\nVERSION_ID="12"\n',
      }).os,
    ).toEqual({ name: 'Debian GNU/Linux', version: '12' });
    expect(
      desktopClientInfo({ appVersion: '1', platform: 'linux', osRelease: '6.1.0', osReleaseFile: '' }).os,
    ).toEqual({
      name: 'Linux',
      version: '6.1.0',
    });
  });

  it('describes the app as the client', () => {
    expect(desktopClientInfo({ appVersion: '0.1.0', appName: 'Skiff' })).toMatchObject({
      clientType: 'desktop-app',
      browser: { name: 'Skiff', version: '0.1.0' },
      device: { type: 'desktop' },
    });
  });
});
