import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createGeoLocator } from './geo';

/**
 * Location rules against small mmdb files written here, so each test names its own records and
 * file layout (the real DB-IP files are read in ip.test.ts and sessions.it.test.ts). A little over
 * 300 lines because the small mmdb writer those files need lives here, its only user.
 */

// --- a minimal MaxMind DB writer (record size 24): search tree, 16 zero bytes, data, metadata ---

function control(type: number, size: number): Buffer {
  if (size >= 29) throw new Error('fixture values must be short');
  return type <= 7 ? Buffer.from([(type << 5) | size]) : Buffer.from([size, type - 7]);
}
function encode(v: unknown): Buffer {
  if (typeof v === 'string') return Buffer.concat([control(2, Buffer.byteLength(v)), Buffer.from(v)]);
  if (typeof v === 'number') {
    const b = Buffer.alloc(4);
    b.writeUInt32BE(v);
    const bytes = b.subarray(b.findIndex((x) => x !== 0) < 0 ? 4 : b.findIndex((x) => x !== 0));
    return Buffer.concat([control(6, bytes.length), bytes]);
  }
  if (Array.isArray(v)) return Buffer.concat([control(11, v.length), ...v.map(encode)]);
  const entries = Object.entries(v as Record<string, unknown>);
  return Buffer.concat([control(7, entries.length), ...entries.flatMap(([k, x]) => [encode(k), encode(x)])]);
}

function bitsOf(network: string, ipVersion: 4 | 6): number[] {
  const [address, prefix] = network.split('/') as [string, string];
  let bytes: number[];
  if (address.includes('.')) {
    bytes = address.split('.').map(Number);
    if (ipVersion === 6) bytes = [...Array<number>(12).fill(0), ...bytes];
  } else {
    const [head, tail = ''] = address.split('::') as [string, string?];
    const h = head ? head.split(':') : [];
    const t = tail ? tail.split(':') : [];
    const groups = [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t].map((g) =>
      parseInt(g, 16),
    );
    bytes = groups.flatMap((g) => [g >> 8, g & 255]);
  }
  const length = Number(prefix) + (ipVersion === 6 && address.includes('.') ? 96 : 0);
  return bytes.flatMap((b) => [7, 6, 5, 4, 3, 2, 1, 0].map((i) => (b >> i) & 1)).slice(0, length);
}

type Rec = number | { data: number } | null;
function mmdb(ipVersion: 4 | 6, records: Record<string, unknown>): Buffer {
  const tree: Array<[Rec, Rec]> = [[null, null]];
  const data: Buffer[] = [];
  let offset = 0;
  for (const [network, record] of Object.entries(records)) {
    const bits = bitsOf(network, ipVersion);
    let node = 0;
    bits.forEach((bit, i) => {
      if (i === bits.length - 1) {
        tree[node]![bit] = { data: offset };
        return;
      }
      let next = tree[node]![bit];
      if (typeof next !== 'number') {
        tree.push([null, null]);
        next = tree.length - 1;
        tree[node]![bit] = next;
      }
      node = next;
    });
    const bytes = encode(record);
    data.push(bytes);
    offset += bytes.length;
  }
  const nodeCount = tree.length;
  const treeBytes = Buffer.alloc(nodeCount * 6);
  for (const [n, pair] of tree.entries()) {
    for (const [side, r] of pair.entries()) {
      const value = r === null ? nodeCount : typeof r === 'number' ? r : nodeCount + 16 + r.data;
      treeBytes.writeUIntBE(value, n * 6 + side * 3, 3);
    }
  }
  const metadata = encode({
    node_count: nodeCount,
    record_size: 24,
    ip_version: ipVersion,
    binary_format_major_version: 2,
    binary_format_minor_version: 0,
    database_type: 'Skiff-Test-City',
    languages: ['en'],
    build_epoch: 1_700_000_000,
    description: { en: 'test' },
  });
  const marker = Buffer.from('ABCDEF4D61784D696E642E636F6D', 'hex');
  return Buffer.concat([treeBytes, Buffer.alloc(16), ...data, marker, metadata]);
}

// --- fixtures ---

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'skiff-geo-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

function write(name: string, content: Buffer | string, inDir = dir): string {
  const path = join(inDir, name);
  writeFileSync(path, content);
  return path;
}
function folder(name: string): string {
  const path = join(dir, name);
  mkdirSync(path);
  return path;
}
const v4 = (city: string) => mmdb(4, { '203.0.113.0/24': { city } });
const v6 = (city: string) => mmdb(6, { '2001:db8:1::/48': { city } });
/** A file naming no family holds both. */
const both = (city: string) =>
  mmdb(6, { '203.0.113.0/24': { city: `${city}4` }, '2001:db8:1::/48': { city: `${city}6` } });

function capturingLogger() {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ level: 'warn' }, { write: (s: string) => lines.push(JSON.parse(s)) });
  return { logger, lines };
}

const cityOf = async (geo: ReturnType<typeof createGeoLocator>, address: string) =>
  (await geo.locate(address)).city;

describe('location records', () => {
  it('reads flat (ip-location-db) and nested (GeoIP2) records, trimmed, naming the country from its code', async () => {
    const file = write(
      'city.mmdb',
      mmdb(4, {
        '203.0.113.0/24': { city: ' Springfield ', state1: 'Oregon', country_code: 'us' },
        '198.51.100.0/24': {
          city: { names: { en: 'München' } },
          subdivisions: [{ names: { en: 'Bavaria' } }],
          country: { iso_code: 'de', names: { en: 'Deutschland' } },
        },
        '203.0.114.0/24': { city: 'Nowhere Town' },
      }),
    );
    const geo = createGeoLocator({ dbPath: file });
    expect(await geo.locate('203.0.113.77')).toEqual({
      kind: 'public',
      label: 'Springfield, Oregon, United States',
      city: 'Springfield',
      region: 'Oregon',
      country: 'United States',
      countryCode: 'US',
      network: '203.0.113.0/24',
    });
    // The database's own country name wins over the one derived from the code.
    expect(await geo.locate('198.51.100.4')).toMatchObject({
      label: 'München, Bavaria, Deutschland',
      city: 'München',
      region: 'Bavaria',
      country: 'Deutschland',
      countryCode: 'DE',
    });
    // Missing parts are left out of the label, not shown empty.
    expect(await geo.locate('203.0.114.9')).toMatchObject({
      label: 'Nowhere Town',
      city: 'Nowhere Town',
      region: null,
      country: null,
      countryCode: null,
    });
  });

  it('ignores blank and non-text fields and the unknown country ZZ', async () => {
    const file = write(
      'odd.mmdb',
      mmdb(4, { '192.0.2.0/24': { city: '   ', state1: 7, country_code: 'ZZ' } }),
    );
    expect(await createGeoLocator({ dbPath: file }).locate('192.0.2.1')).toEqual({
      kind: 'public',
      label: 'Unknown location',
      city: null,
      region: null,
      country: null,
      countryCode: 'ZZ',
      network: '192.0.2.0/24',
    });
  });

  it('a public address the database does not cover is a public "Unknown location" with its network', async () => {
    const geo = createGeoLocator({ dbPath: write('city.mmdb', v4('Springfield')) });
    expect(await geo.locate('8.8.4.4')).toEqual({
      kind: 'public',
      label: 'Unknown location',
      city: null,
      region: null,
      country: null,
      countryCode: null,
      network: '8.8.4.0/24',
    });
  });

  it('an unroutable address is of unknown kind and never looked up', async () => {
    const { logger, lines } = capturingLogger();
    const geo = createGeoLocator({
      dbPath: write('city.mmdb', mmdb(4, { '0.1.2.0/24': { city: 'Zero' } })),
      logger,
    });
    for (const [address, network] of [
      ['0.1.2.3', '0.1.2.0/24'],
      ['224.0.0.9', '224.0.0.0/24'],
    ]) {
      expect(await geo.locate(address), address).toMatchObject({
        kind: 'unknown',
        label: 'Unknown location',
        city: null,
        network,
      });
    }
    expect(lines).toEqual([]);
  });
});

describe('database files', () => {
  it('each family reads the file named for it, before a file naming neither', async () => {
    write('a-all.mmdb', both('Both'));
    write('b-ipv4.mmdb', v4('Four'));
    write('c-ipv6.mmdb', v6('Six'));
    const geo = createGeoLocator({ dbPath: dir });
    expect(await cityOf(geo, '203.0.113.5')).toBe('Four');
    expect(await cityOf(geo, '2001:db8:1::5')).toBe('Six');
  });

  it('a file naming neither family serves each family that has no file of its own', async () => {
    const noV4 = folder('no-v4');
    write('a-ipv6.mmdb', v6('Six'), noV4);
    write('b-all.mmdb', both('Both'), noV4);
    expect(await cityOf(createGeoLocator({ dbPath: noV4 }), '203.0.113.5')).toBe('Both4');
    const noV6 = folder('no-v6');
    write('a-ipv4.mmdb', v4('Four'), noV6);
    write('b-all.mmdb', both('Both'), noV6);
    expect(await cityOf(createGeoLocator({ dbPath: noV6 }), '2001:db8:1::5')).toBe('Both6');
  });

  it('a family with no file at all is a public "Unknown location", without a warning', async () => {
    const { logger, lines } = capturingLogger();
    write('only-ipv4.mmdb', v4('Four'));
    const geo = createGeoLocator({ dbPath: dir, logger });
    expect(await geo.locate('2001:db8:1::5')).toMatchObject({
      kind: 'public',
      label: 'Unknown location',
      network: '2001:db8:1::/48',
    });
    expect(lines).toEqual([]);
  });

  it('a directory gives its .mmdb files in name order, and a single file is used as it is', async () => {
    const mixed = folder('mixed');
    for (const name of ['c-ipv6.mmdb', 'a-all.mmdb', 'README.txt', 'b-ipv4.mmdb'])
      write(name, v4('Four'), mixed);
    expect(createGeoLocator({ dbPath: mixed }).files).toEqual(
      ['a-all.mmdb', 'b-ipv4.mmdb', 'c-ipv6.mmdb'].map((n) => join(mixed, n)),
    );
    const file = write('single.mmdb', v4('Solo'));
    const geo = createGeoLocator({ dbPath: file });
    expect(geo.files).toEqual([file]);
    expect(await cityOf(geo, '203.0.113.5')).toBe('Solo');
  });

  it('refuses a path that does not exist and a directory holding no .mmdb file, naming them', () => {
    const missing = join(dir, 'missing.mmdb');
    expect(() => createGeoLocator({ dbPath: missing })).toThrow(/^GeoIP database .*missing\.mmdb/);
    const empty = folder('empty');
    write('README.txt', 'no database here', empty);
    expect(() => createGeoLocator({ dbPath: empty })).toThrow(empty);
  });

  it('uses no file at all when the database is switched off', async () => {
    const { logger, lines } = capturingLogger();
    const geo = createGeoLocator({ dbPath: false, logger });
    expect(geo.files).toEqual([]);
    expect(await geo.locate('8.8.8.8')).toMatchObject({ kind: 'public', label: 'Unknown location' });
    expect(lines).toEqual([]);
  });

  it('an unreadable database warns once, naming the file, and is opened again on a later look-up', async () => {
    const { logger, lines } = capturingLogger();
    const file = write('broken.mmdb', 'not a database');
    const geo = createGeoLocator({ dbPath: file, logger });
    for (const address of ['203.0.113.5', '203.0.113.6']) {
      expect(await geo.locate(address)).toMatchObject({
        kind: 'public',
        label: 'Unknown location',
        network: '203.0.113.0/24',
      });
      // Warned at the first failure, and only then.
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatchObject({ level: 40, file });
    }
    write('broken.mmdb', v4('Mended'));
    expect(await cityOf(geo, '203.0.113.5')).toBe('Mended');
  });

  it('a database file is read once: replacing it does not change a running locator’s answers', async () => {
    const file = write('once.mmdb', v4('First'));
    const geo = createGeoLocator({ dbPath: file });
    expect(await cityOf(geo, '203.0.113.5')).toBe('First');
    write('once.mmdb', v4('Second'));
    expect(await cityOf(geo, '203.0.113.5')).toBe('First');
  });
});
