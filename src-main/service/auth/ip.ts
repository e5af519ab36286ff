import { BlockList, isIP } from 'node:net';

/** Address arithmetic for locations and proxies. Only networks leave this module, never full addresses. */

export type AddressKind = 'loopback' | 'private' | 'public' | 'unknown';

/** `::ffff:127.0.0.1` (a dual-stack socket's view of IPv4) is 127.0.0.1; zone ids are dropped. */
export function normalizeAddress(address: string | undefined): string | undefined {
  if (!address) return undefined;
  let a = address.trim().toLowerCase();
  if (a.startsWith('[') && a.endsWith(']')) a = a.slice(1, -1);
  const zone = a.indexOf('%');
  if (zone >= 0) a = a.slice(0, zone);
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(a);
  if (mapped) a = mapped[1]!;
  return isIP(a) === 0 ? undefined : a;
}

/** The eight 16-bit groups of an IPv6 address. */
export function ipv6Groups(address: string): number[] {
  let a = address;
  const v4 = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(a);
  if (v4) {
    const [b0, b1, b2, b3] = v4.slice(1).map(Number) as [number, number, number, number];
    a = `${a.slice(0, v4.index)}${((b0 << 8) | b1).toString(16)}:${((b2 << 8) | b3).toString(16)}`;
  }
  const [head, tail] = a.split('::') as [string, string | undefined];
  const h = head ? head.split(':') : [];
  const t = tail === undefined ? null : tail ? tail.split(':') : [];
  const parts = t === null ? h : [...h, ...Array<string>(8 - h.length - t.length).fill('0'), ...t];
  return parts.map((p) => Number.parseInt(p, 16));
}

/** The /24 (IPv4) or /48 (IPv6) around an address, and that network's first address for look-ups. */
export function networkOf(address: string): { cidr: string; base: string } {
  if (isIP(address) === 4) {
    const base = `${address.split('.').slice(0, 3).join('.')}.0`;
    return { cidr: `${base}/24`, base };
  }
  const g = ipv6Groups(address)
    .slice(0, 3)
    .map((n) => n.toString(16));
  const base = `${g.join(':')}::`;
  return { cidr: `${base}/48`, base };
}

const loopback = new BlockList();
loopback.addSubnet('127.0.0.0', 8, 'ipv4');
loopback.addAddress('::1', 'ipv6');

const privateRanges = new BlockList();
for (const [net, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
] as const) {
  privateRanges.addSubnet(net, bits, 'ipv4');
}
privateRanges.addSubnet('fc00::', 7, 'ipv6');
privateRanges.addSubnet('fe80::', 10, 'ipv6');

const unroutable = new BlockList();
unroutable.addSubnet('0.0.0.0', 8, 'ipv4');
unroutable.addSubnet('224.0.0.0', 3, 'ipv4');
unroutable.addAddress('::', 'ipv6');
unroutable.addSubnet('ff00::', 8, 'ipv6');

export function classifyAddress(address: string): AddressKind {
  const family = isIP(address) === 4 ? 'ipv4' : 'ipv6';
  if (loopback.check(address, family)) return 'loopback';
  if (privateRanges.check(address, family)) return 'private';
  if (unroutable.check(address, family)) return 'unknown';
  return 'public';
}

/**
 * Parses `--trust-proxy` values (addresses or CIDRs) into a test of an address: is it one of the
 * proxies whose forwarded headers are believed? An address that is none at all is not.
 */
export function createProxyTrust(trusted: readonly string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of trusted) {
    const [addr, bits] = entry.split('/') as [string, string | undefined];
    const normal = normalizeAddress(addr);
    if (!normal) throw new Error(`--trust-proxy ${entry}: not an IP address or CIDR`);
    const family = isIP(normal) === 4 ? 'ipv4' : 'ipv6';
    if (bits === undefined) list.addAddress(normal, family);
    else list.addSubnet(normal, Number(bits), family);
  }
  return (address) => {
    const a = normalizeAddress(address);
    return trusted.length > 0 && a !== undefined && list.check(a, isIP(a) === 4 ? 'ipv4' : 'ipv6');
  };
}

/**
 * The client address behind `--trust-proxy` proxies. X-Forwarded-For is read only when the socket
 * peer is one of them, and then from the right: the first hop not itself trusted is the client,
 * since everything left of it may be forged by that client.
 */
export function createClientAddressResolver(trusted: readonly string[]) {
  const isTrusted = createProxyTrust(trusted);

  return (peer: string | undefined, forwardedFor: string | string[] | undefined): string | undefined => {
    const socket = normalizeAddress(peer);
    if (!socket || !isTrusted(socket) || forwardedFor === undefined) return socket;
    const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
    let client = socket;
    for (let i = hops.length - 1; i >= 0; i--) {
      const hop = normalizeAddress(hops[i]);
      if (!hop) break;
      client = hop;
      if (!isTrusted(hop)) break;
    }
    return client;
  };
}
