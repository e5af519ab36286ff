/**
 * The `--oidc-*` and `--local-login` flags of `serve` (issue 26), parsed apart from args.ts so
 * that file stays about the rest. Rules:
 * - Nothing OIDC is accepted without --oidc-issuer, and --oidc-issuer needs --oidc-client-id and
 *   --public-url (the redirect URI is made under it): each missing piece is one line and exit 2.
 * - The client secret comes from a file (--oidc-client-secret-file) or $SKIFF_OIDC_CLIENT_SECRET,
 *   never from the command line, where `ps` would show it. A file's trailing newline is dropped.
 * - --local-login off with no --oidc-issuer is refused: nobody could sign in.
 */
import { readFileSync } from 'node:fs';
import type { OidcOptions } from '../service/auth/oidc/options';
import { parseDuration } from '../service/events/history/index';

export const OIDC_USAGE = `       [--oidc-issuer URL --oidc-client-id ID [--oidc-client-secret-file FILE] [--oidc-scopes "openid profile email groups"]
        [--oidc-username-claim email] [--oidc-groups-claim groups] [--oidc-name NAME] [--oidc-only]
        [--oidc-admin-groups G1,G2] [--oidc-recheck 15m] [--oidc-insecure-http]] [--local-login on|off]`;

/** The parseArgs option table of these flags. */
export const OIDC_FLAGS = {
  'oidc-issuer': { type: 'string' },
  'oidc-client-id': { type: 'string' },
  'oidc-client-secret-file': { type: 'string' },
  'oidc-scopes': { type: 'string' },
  'oidc-username-claim': { type: 'string' },
  'oidc-groups-claim': { type: 'string' },
  'oidc-name': { type: 'string' },
  'oidc-only': { type: 'boolean' },
  'oidc-admin-groups': { type: 'string' },
  'oidc-recheck': { type: 'string' },
  'oidc-insecure-http': { type: 'boolean' },
  'local-login': { type: 'string' },
} as const;

type Values = {
  [K in keyof typeof OIDC_FLAGS]?: (typeof OIDC_FLAGS)[K]['type'] extends 'boolean' ? boolean : string;
};

export class OidcUsageError extends Error {}

const list = (text: string, sep: RegExp) =>
  text
    .split(sep)
    .map((s) => s.trim())
    .filter((s) => s !== '');

function readSecret(file: string | undefined, env: string | undefined): string | undefined {
  if (file === undefined) return env?.trim() ? env.trim() : undefined;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    throw new OidcUsageError(
      `--oidc-client-secret-file ${file}: cannot read it (${(err as NodeJS.ErrnoException).code ?? 'error'})`,
    );
  }
  const secret = text.trimEnd();
  if (secret === '') throw new OidcUsageError(`--oidc-client-secret-file ${file}: the file is empty`);
  return secret;
}

export function parseOidcArgs(
  values: Values,
  env: { clientSecret?: string | undefined },
  publicUrl: string | undefined,
): { oidc?: OidcOptions; localLogin?: boolean } {
  const local = values['local-login'];
  if (local !== undefined && local !== 'on' && local !== 'off')
    throw new OidcUsageError(`--local-login must be on or off (got ${JSON.stringify(local)})`);
  const issuer = values['oidc-issuer'];
  if (issuer === undefined) {
    const stray = Object.keys(values).find(
      (k) => k.startsWith('oidc-') && values[k as keyof Values] !== undefined,
    );
    if (stray) throw new OidcUsageError(`--${stray} needs --oidc-issuer`);
    if (local === 'off')
      throw new OidcUsageError('--local-login off needs --oidc-issuer: nobody could sign in');
    return local === 'on' ? { localLogin: true } : {};
  }
  const url = URL.parse(issuer);
  if (!url || (url.protocol !== 'https:' && url.protocol !== 'http:'))
    throw new OidcUsageError(`--oidc-issuer ${issuer}: give the provider's issuer URL (https://...)`);
  if (url.protocol === 'http:' && !values['oidc-insecure-http'])
    throw new OidcUsageError(
      `--oidc-issuer ${issuer}: the issuer must be https:// (--oidc-insecure-http allows http:// for a provider on loopback)`,
    );
  const clientId = values['oidc-client-id'];
  if (!clientId) throw new OidcUsageError('--oidc-issuer needs --oidc-client-id');
  if (!publicUrl)
    throw new OidcUsageError(
      '--oidc-issuer needs --public-url: the provider sends browsers back to {public-url}/v1/auth/oidc/callback',
    );
  const recheckText = values['oidc-recheck'];
  const recheckMs = recheckText === undefined ? undefined : (parseDuration(recheckText) ?? -1);
  if (recheckMs !== undefined && (recheckMs < 60_000 || recheckMs > 24 * 3_600_000))
    throw new OidcUsageError('--oidc-recheck must be a duration from 1m to 24h, such as 15m');
  const clientSecret = readSecret(values['oidc-client-secret-file'], env.clientSecret);
  const scopes = values['oidc-scopes'] === undefined ? undefined : list(values['oidc-scopes'], /[\s,]+/);
  const adminGroups =
    values['oidc-admin-groups'] === undefined ? undefined : list(values['oidc-admin-groups'], /,/);
  const oidc: OidcOptions = {
    issuer,
    clientId,
    ...(clientSecret !== undefined ? { clientSecret } : {}),
    ...(scopes ? { scopes } : {}),
    ...(values['oidc-username-claim'] ? { usernameClaim: values['oidc-username-claim'] } : {}),
    ...(values['oidc-groups-claim'] ? { groupsClaim: values['oidc-groups-claim'] } : {}),
    ...(values['oidc-name'] ? { name: values['oidc-name'] } : {}),
    ...(values['oidc-only'] ? { only: true } : {}),
    ...(adminGroups ? { adminGroups } : {}),
    ...(recheckMs !== undefined ? { recheckMs } : {}),
    ...(values['oidc-insecure-http'] ? { allowInsecureRequests: true } : {}),
  };
  return { oidc, ...(local !== undefined ? { localLogin: local === 'on' } : {}) };
}
