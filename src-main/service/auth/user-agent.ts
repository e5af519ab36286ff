import UAParser from 'ua-parser-js';
import type { ClientDescription } from '../../../src-shared/contract/auth-models';

export type ClientSoftware = Omit<ClientDescription, 'location'>;

/** Long enough for any real User-Agent; the rest is never parsed, so a huge header costs nothing. */
const MAX_UA = 512;
const MAX_FIELD = 100;

const clip = (v: string | undefined): string | null => (v ? v.slice(0, MAX_FIELD) : null);

/** A script names itself in its first product token: curl/8.5.0, python-requests/2.31.0, Go-http-client/1.1, node. */
const PRODUCT = /^([A-Za-z][\w.+-]*)(?:\/([\w.+-]+))?/;

export function describeUserAgent(header: string | undefined): ClientSoftware {
  const ua = (header ?? '').slice(0, MAX_UA).trim();
  if (ua === '') {
    return {
      clientType: 'unknown',
      device: { type: 'unknown', vendor: null, model: null },
      browser: { name: null, version: null },
      os: { name: null, version: null },
    };
  }
  const r = new UAParser(ua).getResult();
  const os = { name: clip(r.os.name), version: clip(r.os.version) };
  if (r.browser.name) {
    return {
      clientType: 'browser',
      // ua-parser leaves the type empty for desktops: a browser without one is on a desktop.
      device: {
        type: r.device.type ?? 'desktop',
        vendor: clip(r.device.vendor),
        model: clip(r.device.model),
      },
      browser: { name: clip(r.browser.name), version: clip(r.browser.version) },
      os,
    };
  }
  const product = PRODUCT.exec(ua);
  return {
    clientType: product ? 'script' : 'unknown',
    device: { type: r.device.type ?? 'unknown', vendor: clip(r.device.vendor), model: clip(r.device.model) },
    browser: { name: clip(product?.[1]), version: clip(product?.[2]) },
    os,
  };
}
