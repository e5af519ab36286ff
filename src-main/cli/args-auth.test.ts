import { describe, expect, it } from 'vitest';
import { parseServeArgs, UsageError } from './args';

describe('serve: authentication flags', () => {
  it('leaves lifetimes unset unless given, so saved settings apply', () => {
    const o = parseServeArgs([], { dataDir: '/d' });
    expect(o.accessTokenMinutes).toBeUndefined();
    expect(o.refreshTokenDays).toBeUndefined();
    expect(o.trustProxy).toEqual([]);
    expect(o.allowedHosts).toEqual([]);
  });

  it('reads repeatable proxies and hosts, lifetimes and the GeoIP path (flag over environment)', () => {
    const o = parseServeArgs(
      [
        '--trust-proxy',
        '10.0.0.0/8',
        '--trust-proxy',
        '::1',
        '--allowed-host',
        'skiff.lan',
        '--access-token-minutes',
        '30',
        '--refresh-token-days',
        '7',
        '--geoip-db',
        '/db/city.mmdb',
      ],
      { dataDir: '/d', geoipDb: '/env/db.mmdb' },
    );
    expect(o).toMatchObject({
      trustProxy: ['10.0.0.0/8', '::1'],
      allowedHosts: ['skiff.lan'],
      accessTokenMinutes: 30,
      refreshTokenDays: 7,
      geoipDb: '/db/city.mmdb',
    });
    expect(parseServeArgs([], { dataDir: '/d', geoipDb: '/env/db.mmdb' }).geoipDb).toBe('/env/db.mmdb');
  });

  it.each([
    ['--access-token-minutes', '14'],
    ['--access-token-minutes', '61'],
    ['--refresh-token-days', '0'],
    ['--trust-proxy', 'proxy.lan'],
    ['--trust-proxy', '10.0.0.0/33'],
  ])('refuses %s %s', (flag, value) => {
    expect(() => parseServeArgs([flag, value], { dataDir: '/d' })).toThrow(UsageError);
  });

  it('refuses an --allowed-host entry that no Host header could match, naming it', () => {
    for (const entry of ['', ':8080', 'skiff.lan:', 'skiff.lan:abc', 'skiff.lan:70000', 'a b', '[fd00::1']) {
      expect(() => parseServeArgs(['--allowed-host', entry], { dataDir: '/d' }), entry).toThrow(UsageError);
      expect(() => parseServeArgs(['--allowed-host', entry], { dataDir: '/d' }), entry).toThrow(
        JSON.stringify(entry),
      );
    }
  });

  it('accepts host names, addresses and bracketed IPv6, with or without a port', () => {
    const entries = [
      'skiff.lan',
      'Skiff.LAN:8443',
      '10.0.0.5:80',
      '[fd00::1]',
      '[fd00::1]:443',
      'localhost:65535',
    ];
    const o = parseServeArgs(
      entries.flatMap((e) => ['--allowed-host', e]),
      { dataDir: '/d' },
    );
    expect(o.allowedHosts).toEqual(entries);
  });
});
