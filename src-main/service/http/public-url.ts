/**
 * `--public-url`: the origin clients reach the service at (an ingress's https://skiff.example.com).
 * Rules:
 * - With it, the links the service hands out (Location, and every target in a Link header) are
 *   absolute under it; without it they stay relative, which is right through any proxy. They are
 *   never built from a request's Host or X-Forwarded-* headers: those are the client's to say,
 *   and a link a cache keeps must not be one a client chose.
 * - Its host is accepted as Host and its origin as Origin (auth/guard.ts), so naming the public
 *   URL is enough to be reached under it; X-Forwarded-Proto is still believed only from
 *   --trust-proxy addresses (a cookie's Secure attribute follows it).
 */

/** The guard's allowlists (auth options) with the public URL's Host and Origin added. */
export function publicUrlAuth(
  auth: { allowedHosts?: readonly string[]; allowedOrigins?: readonly string[] } | undefined,
  publicUrl: string,
): { allowedHosts: string[]; allowedOrigins: string[] } {
  const url = new URL(publicUrl);
  return {
    allowedHosts: [...(auth?.allowedHosts ?? []), url.host],
    allowedOrigins: [...(auth?.allowedOrigins ?? []), url.origin],
  };
}

/** `headers` with Location and Link targets resolved against `base` (an origin). */
export function absoluteLinks(headers: Record<string, string>, base: string): Record<string, string> {
  const out = { ...headers };
  for (const name of Object.keys(out)) {
    const lower = name.toLowerCase();
    if (lower === 'location') out[name] = new URL(out[name]!, base).href;
    else if (lower === 'link')
      out[name] = out[name]!.replace(/<([^>]*)>/g, (_, target: string) => `<${new URL(target, base).href}>`);
  }
  return out;
}
