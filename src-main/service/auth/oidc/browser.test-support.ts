/**
 * A browser without a browser, for HTTP tests of the OIDC sign-in: fetch with a cookie jar that
 * follows redirects by hand and fills in the provider's real login and consent pages. Rules:
 * - Cookies behave as a browser's do for these tests: scoped by host (not port, as browsers do),
 *   by path prefix, dropped on Max-Age<=0 or an expiry in the past. No domain or Secure logic:
 *   everything runs on http://127.0.0.1.
 * - The driver fills forms only on pages the provider serves (the devInteractions login and
 *   consent forms); it never talks to the provider's internals.
 * - Hooks (`onAuthorize`) let a test change the authorization request the relying party built, as
 *   an attacker or a broken client would, before the provider sees it.
 */

interface StoredCookie {
  host: string;
  name: string;
  value: string;
  path: string;
  expires?: number;
}

export interface PageResult {
  url: URL;
  status: number;
  headers: Headers;
  body: string;
}

export class TestBrowser {
  private cookies: StoredCookie[] = [];

  /** `userAgent`: sent with every request, as a browser sends its own. */
  constructor(private readonly userAgent?: string) {}

  /** One request, no redirect followed; cookies sent and kept. */
  async request(url: string | URL, init: RequestInit = {}): Promise<PageResult> {
    const target = new URL(url);
    const headers = new Headers(init.headers);
    const cookie = this.cookieHeader(target);
    if (cookie) headers.set('cookie', cookie);
    if (this.userAgent && !headers.has('user-agent')) headers.set('user-agent', this.userAgent);
    const res = await fetch(target, { ...init, headers, redirect: 'manual' });
    this.keep(target, res.headers.getSetCookie());
    return { url: target, status: res.status, headers: res.headers, body: await res.text() };
  }

  /** The cookie named so that a request to this URL would send, if any. */
  cookie(url: string | URL, name: string): string | undefined {
    const target = new URL(url);
    return this.matching(target).find((c) => c.name === name)?.value;
  }

  /** Forgets cookies by name (as a user clearing them, or another browser). */
  clearCookie(name: string): void {
    this.cookies = this.cookies.filter((c) => c.name !== name);
  }

  /**
   * Follows redirects from `url` until a page that is not a redirect, or until `stop` says the
   * next location is where to stop (that location is then returned without being requested).
   */
  async follow(
    url: string | URL,
    opts: { stop?: (next: URL) => boolean; rewrite?: (next: URL) => URL; maxHops?: number } = {},
  ): Promise<{ stoppedAt?: URL; page: PageResult }> {
    let page = await this.request(url);
    for (let hop = 0; hop < (opts.maxHops ?? 20); hop++) {
      const location = page.headers.get('location');
      if (page.status < 300 || page.status >= 400 || !location) return { page };
      let next = new URL(location, page.url);
      if (opts.rewrite) next = opts.rewrite(next);
      if (opts.stop?.(next)) return { stoppedAt: next, page };
      page = await this.request(next);
    }
    throw new Error(`more than ${opts.maxHops ?? 20} redirects from ${String(url)}`);
  }

  private matching(target: URL): StoredCookie[] {
    const now = Date.now();
    this.cookies = this.cookies.filter((c) => c.expires === undefined || c.expires > now);
    return this.cookies.filter(
      (c) =>
        c.host === target.hostname &&
        (target.pathname === c.path ||
          target.pathname.startsWith(c.path.endsWith('/') ? c.path : `${c.path}/`)),
    );
  }

  private cookieHeader(target: URL): string {
    return this.matching(target)
      .map((c) => `${c.name}=${c.value}`)
      .join('; ');
  }

  private keep(from: URL, setCookies: string[]): void {
    for (const line of setCookies) {
      const [pair = '', ...attrs] = line.split(';').map((s) => s.trim());
      const eq = pair.indexOf('=');
      if (eq <= 0) continue;
      const cookie: StoredCookie = {
        host: from.hostname,
        name: pair.slice(0, eq),
        value: pair.slice(eq + 1),
        path: '/',
      };
      for (const attr of attrs) {
        const [k = '', v = ''] = attr.split('=');
        const key = k.toLowerCase();
        if (key === 'path' && v) cookie.path = v;
        if (key === 'max-age') cookie.expires = Date.now() + Number(v) * 1000;
        if (key === 'expires' && cookie.expires === undefined) cookie.expires = Date.parse(v);
      }
      this.cookies = this.cookies.filter(
        (c) => !(c.host === cookie.host && c.name === cookie.name && c.path === cookie.path),
      );
      if (cookie.expires === undefined || cookie.expires > Date.now()) this.cookies.push(cookie);
    }
  }
}

export interface ProviderLogin {
  /** The login field of the provider's form: the user's id there. */
  login: string;
  password?: string;
  /** Changes the authorization request before the provider sees it (the first time only). */
  onAuthorize?: (authorizeUrl: URL) => URL;
  /** Clicks the provider page's "[ Cancel ]" link instead of signing in. */
  cancel?: boolean;
}

interface HtmlForm {
  action: string;
  fields: Record<string, string>;
}

function parseForm(html: string): HtmlForm | undefined {
  const form = /<form[^>]*action="([^"]+)"[^>]*>([\s\S]*?)<\/form>/i.exec(html);
  if (!form?.[1]) return undefined;
  const fields: Record<string, string> = {};
  for (const input of (form[2] ?? '').matchAll(/<input[^>]*>/gi)) {
    const tag = input[0];
    const name = /name="([^"]*)"/i.exec(tag)?.[1];
    if (!name) continue;
    fields[name] = /value="([^"]*)"/i.exec(tag)?.[1] ?? '';
  }
  return { action: form[1].replaceAll('&amp;', '&'), fields };
}

/**
 * Signs in at the provider from `startUrl` (Skiff's /v1/auth/oidc/login, or an authorization URL)
 * through its real pages, and answers the redirect back to the relying party (`callbackPrefix`),
 * not yet followed: the test decides what to do with it.
 */
export async function signInAtProvider(
  browser: TestBrowser,
  startUrl: string | URL,
  issuer: string,
  callbackPrefix: string,
  who: ProviderLogin,
): Promise<URL> {
  let rewritten = false;
  const authorize = `${issuer}/auth`;
  const rewrite = (next: URL) => {
    if (!rewritten && who.onAuthorize && next.href.startsWith(authorize)) {
      rewritten = true;
      return who.onAuthorize(next);
    }
    return next;
  };
  const stop = (next: URL) => next.href.startsWith(callbackPrefix);
  let { stoppedAt, page } = await browser.follow(startUrl, { stop, rewrite });
  for (let step = 0; step < 6 && !stoppedAt; step++) {
    const form = page.status === 200 ? parseForm(page.body) : undefined;
    if (!form || !page.url.href.startsWith(issuer)) {
      throw new Error(`the sign-in stopped at ${page.url.href} (${page.status}): ${page.body.slice(0, 400)}`);
    }
    const cancel = who.cancel ? /<a href="([^"]+)">\[ Cancel \]<\/a>/.exec(page.body)?.[1] : undefined;
    if (cancel) {
      ({ stoppedAt, page } = await browser.follow(new URL(cancel.replaceAll('&amp;', '&'), page.url), {
        stop,
        rewrite,
      }));
      continue;
    }
    const fields = { ...form.fields };
    if (fields.prompt === 'login') {
      fields.login = who.login;
      fields.password = who.password ?? 'any-password';
    }
    const posted = await browser.request(new URL(form.action, page.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(fields).toString(),
    });
    const location = posted.headers.get('location');
    if (!location) {
      throw new Error(
        `the provider answered the ${fields.prompt} form with ${posted.status}: ${posted.body.slice(0, 400)}`,
      );
    }
    const next = new URL(location, posted.url);
    if (stop(next)) return next;
    ({ stoppedAt, page } = await browser.follow(next, { stop, rewrite }));
  }
  if (!stoppedAt) throw new Error('the provider never sent the browser back');
  return stoppedAt;
}
