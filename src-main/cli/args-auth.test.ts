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
});
