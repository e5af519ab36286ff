/**
 * The page's side of an OIDC sign-in (issue 26 §1), kept pure where it can be so the wording and
 * the URL handling are tested without a browser:
 * - leaving: the login link names a relative `returnTo` (the service refuses others); the route
 *   lives in the URL's fragment, which never reaches a server, so it is kept in sessionStorage
 *   (this tab only) and put back on return.
 * - returning: the service sends the browser back with `?oidc_code=` (a one-time code the page
 *   exchanges by POST; tokens never travel in a URL) or `?oidc_error=CODE`. Both leave the address
 *   bar at once (history.replaceState): a code must not be bookmarked, shared or sent again by a
 *   reload, and an old error must not greet the next visit.
 * - an error code becomes a sentence saying what happened and what to do; an unknown code (a newer
 *   service) still reads as a failed sign-in.
 */

const RETURN_HASH_KEY = 'skiff.oidc.returnHash';

export interface OidcReturn {
  code: string | null;
  error: string | null;
  /** The same address without the two parameters (and with the remembered route, if any). */
  cleanUrl: string;
}

/** The code or error the service sent the browser back with; null when the address has neither. */
export function readOidcReturn(
  location: { pathname: string; search: string; hash: string },
  rememberedHash: string | null,
): OidcReturn | null {
  const params = new URLSearchParams(location.search);
  const code = params.get('oidc_code');
  const error = params.get('oidc_error');
  if (code === null && error === null) return null;
  params.delete('oidc_code');
  params.delete('oidc_error');
  const rest = params.toString();
  const hash = location.hash || rememberedHash || '';
  return {
    code: code || null,
    error: error || (code ? null : 'oidc_failed'),
    cleanUrl: `${location.pathname}${rest ? `?${rest}` : ''}${hash}`,
  };
}

/** The provider's login link: the service's login path, coming back to this page. */
export function oidcLoginHref(loginPath: string, pathname: string): string {
  return `${loginPath}?${new URLSearchParams({ returnTo: pathname.startsWith('/') ? pathname : '/' })}`;
}

export function rememberReturnHash(hash: string): void {
  try {
    if (hash) sessionStorage.setItem(RETURN_HASH_KEY, hash);
    else sessionStorage.removeItem(RETURN_HASH_KEY);
  } catch {
    // Storage refused (a private mode): the sign-in lands on the start page instead.
  }
}

/** The route remembered when the sign-in left, once: it is forgotten as it is read. */
export function takeReturnHash(): string | null {
  try {
    const hash = sessionStorage.getItem(RETURN_HASH_KEY);
    sessionStorage.removeItem(RETURN_HASH_KEY);
    return hash?.startsWith('#') ? hash : null;
  } catch {
    return null;
  }
}

/** What an `?oidc_error=` code means to the person, naming the provider as the button does. */
export function oidcErrorText(code: string, provider: string): string {
  const text = errorText(code, provider);
  // The provider's stand-in name ("the identity provider") may open the sentence.
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function errorText(code: string, provider: string): string {
  switch (code) {
    case 'oidc_unavailable':
      return `${provider} cannot be reached right now, so you were not signed in. Try again in a moment; administrators can still sign in with a password.`;
    case 'oidc_denied':
      return `${provider} did not sign you in (the sign-in was cancelled or refused there). Try again.`;
    case 'oidc_state_mismatch':
      return 'This sign-in was not started in this browser, or took longer than 10 minutes, so it was refused. Sign in again from this page.';
    case 'oidc_code_rejected':
      return `${provider} refused the sign-in's code (it was already used or has expired). Sign in again.`;
    case 'oidc_token_invalid':
      return `${provider}'s answer could not be verified, so you were not signed in. Try again; if it keeps happening, an administrator finds the reason in the service's log.`;
    case 'oidc_account_conflict':
      return `Your name at ${provider} is already taken by a Skiff account that signs in with a password, so you were not signed in. Ask an administrator to rename or remove that account.`;
    case 'oidc_access_removed':
      return `Your access was removed at ${provider}. Ask an administrator if you should still have it.`;
    default:
      // The code came in the address bar: shown only if it looks like one, so a crafted link
      // cannot put its own words on this page.
      return /^[a-z_]{1,40}$/.test(code)
        ? `Signing in with ${provider} did not work (${code}). Try again.`
        : `Signing in with ${provider} did not work. Try again.`;
  }
}
