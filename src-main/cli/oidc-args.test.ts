/** `serve`'s --oidc-* and --local-login flags (oidc-args.ts, through parseServeArgs). */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { parseServeArgs, UsageError } from './args';

const PUBLIC = '--public-url=https://skiff.example.com';
const ISSUER = '--oidc-issuer=https://idp.example.com';
const parse = (argv: string[], oidcClientSecret?: string) =>
  parseServeArgs(argv, { dataDir: '/tmp/skiff-data', oidcClientSecret });
const refusal = (argv: string[]) => {
  try {
    parse(argv);
  } catch (err) {
    expect(err).toBeInstanceOf(UsageError);
    return (err as Error).message.split('\n')[0];
  }
  return 'accepted';
};

describe('--oidc-* flags', () => {
  it('are absent without --oidc-issuer, and password login stays on', () => {
    const o = parse([]);
    expect(o.oidc).toBeUndefined();
    expect(o.localLogin).toBeUndefined();
    expect(parse(['--local-login', 'on']).localLogin).toBe(true);
  });

  it('give the options createService takes', () => {
    const o = parse([
      ISSUER,
      '--oidc-client-id=skiff',
      PUBLIC,
      '--oidc-scopes=openid, email  groups offline_access',
      '--oidc-username-claim=preferred_username',
      '--oidc-groups-claim=roles',
      '--oidc-name=Dex',
      '--oidc-only',
      '--oidc-admin-groups= ops , platform-admins,',
      '--oidc-recheck=5m',
      '--local-login=off',
    ]);
    expect(o.oidc).toEqual({
      issuer: 'https://idp.example.com',
      clientId: 'skiff',
      scopes: ['openid', 'email', 'groups', 'offline_access'],
      usernameClaim: 'preferred_username',
      groupsClaim: 'roles',
      name: 'Dex',
      only: true,
      adminGroups: ['ops', 'platform-admins'],
      recheckMs: 300_000,
    });
    expect(o.localLogin).toBe(false);
    const base = [ISSUER, '--oidc-client-id=skiff', PUBLIC];
    expect(parse([...base, '--local-login=on']).localLogin).toBe(true);
    expect('localLogin' in parse(base)).toBe(false);
    expect('clientSecret' in parse(base).oidc!).toBe(false);
    expect('recheckMs' in parse(base).oidc!).toBe(false);
  });

  it('read the client secret from its file (trailing newline dropped), else from the environment', () => {
    const dir = mkdtempSync(join(tmpdir(), 'skiff-oidc-args-'));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const file = join(dir, 'secret');
    writeFileSync(file, 'from-file\n');
    const args = [ISSUER, '--oidc-client-id=skiff', PUBLIC];
    expect(parse([...args, `--oidc-client-secret-file=${file}`], 'from-env').oidc?.clientSecret).toBe(
      'from-file',
    );
    expect(parse(args, ' from-env ').oidc?.clientSecret).toBe('from-env');
    expect(parse(args, '  ').oidc?.clientSecret).toBeUndefined();
    writeFileSync(file, '\n');
    expect(refusal([...args, `--oidc-client-secret-file=${file}`])).toBe(
      `--oidc-client-secret-file ${file}: the file is empty`,
    );
    expect(refusal([...args, `--oidc-client-secret-file=${join(dir, 'missing')}`])).toBe(
      `--oidc-client-secret-file ${join(dir, 'missing')}: cannot read it (ENOENT)`,
    );
  });

  it('allow an http:// issuer only with --oidc-insecure-http', () => {
    const args = ['--oidc-issuer=http://127.0.0.1:4000', '--oidc-client-id=skiff', PUBLIC];
    expect(refusal(args)).toMatch(
      /must be https:\/\/ \(--oidc-insecure-http allows http:\/\/ for a provider on loopback\)/,
    );
    expect(parse([...args, '--oidc-insecure-http']).oidc?.allowInsecureRequests).toBe(true);
  });

  it('refuse what cannot work, one line each', () => {
    expect(refusal(['--oidc-client-id=skiff'])).toBe('--oidc-client-id needs --oidc-issuer');
    expect(refusal(['--oidc-only'])).toBe('--oidc-only needs --oidc-issuer');
    expect(refusal(['--local-login=off'])).toBe(
      '--local-login off needs --oidc-issuer: nobody could sign in',
    );
    expect(refusal(['--local-login=maybe'])).toBe('--local-login must be on or off (got "maybe")');
    expect(refusal([ISSUER, PUBLIC])).toBe('--oidc-issuer needs --oidc-client-id');
    expect(refusal([ISSUER, '--oidc-client-id=skiff'])).toMatch(/^--oidc-issuer needs --public-url/);
    expect(refusal(['--oidc-issuer=idp', '--oidc-client-id=skiff', PUBLIC])).toMatch(
      /give the provider's issuer URL/,
    );
    expect(refusal(['--oidc-issuer=ftp://idp.example.com', '--oidc-client-id=skiff', PUBLIC])).toMatch(
      /give the provider's issuer URL/,
    );
    for (const d of ['59s', '25h', 'soon'])
      expect(refusal([ISSUER, '--oidc-client-id=skiff', PUBLIC, `--oidc-recheck=${d}`])).toBe(
        '--oidc-recheck must be a duration from 1m to 24h, such as 15m',
      );
    expect(parse([ISSUER, '--oidc-client-id=skiff', PUBLIC, '--oidc-recheck=24h']).oidc?.recheckMs).toBe(
      86_400_000,
    );
    expect(parse([ISSUER, '--oidc-client-id=skiff', PUBLIC, '--oidc-recheck=1m']).oidc?.recheckMs).toBe(
      60_000,
    );
  });
});
