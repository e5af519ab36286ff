/**
 * Sign-in with an OpenID Provider, as the rest of authentication sees it: the relying party,
 * the sign-in flow, and the recheck with its background sweep. Rules:
 * - Built only when `--oidc-issuer` is given; nothing here runs otherwise.
 * - Needs the secret key (`--secret-key-file` / SKIFF_SECRET_KEY): the provider's refresh tokens
 *   are kept sealed with it (links.ts).
 * - The sweep runs on a timer (unref'd: it never keeps the process alive) every SWEEP_MS, and
 *   also on demand (`sweep()`, which tests call after moving the service clock).
 */
import type { AuthMethods } from '../../../../src-shared/contract/oidc-operations';
import { OIDC_LOGIN_PATH } from '../../../../src-shared/contract/oidc-operations';
import type { AuthCore } from '../core';
import { sweepFlows } from './flows';
import { TokenSeal } from './links';
import type { ResolvedOidc } from './options';
import { Recheck } from './recheck';
import { RelyingParty } from './relying-party';
import { SignIn } from './signin';

export const SWEEP_MS = 15_000;

export interface OidcService {
  options: ResolvedOidc;
  signIn: SignIn;
  recheck: Recheck;
  /** What GET /v1/auth/methods says of the provider. */
  method(): Promise<NonNullable<AuthMethods['oidc']>>;
  /** Due rechecks and expired flows and codes. */
  sweep(): Promise<void>;
  close(): void;
}

export function createOidc(core: AuthCore, options: ResolvedOidc, secretKey: string): OidcService {
  const rp = new RelyingParty(options, core.now);
  const seal = new TokenSeal(secretKey);
  const signIn = new SignIn(core, rp, seal);
  const recheck = new Recheck(core, rp, seal);
  let sweeping: Promise<void> | undefined;
  const sweep = () => {
    sweeping ??= (async () => {
      await recheck.sweep();
      await sweepFlows(core.backend, core.now());
    })().finally(() => {
      sweeping = undefined;
    });
    return sweeping;
  };
  const timer = setInterval(() => {
    sweep().catch((err: unknown) => core.logger.warn({ err }, 'oidc sweep failed'));
  }, SWEEP_MS);
  timer.unref();
  // Discovery now, in the background: a provider down at start is only logged.
  rp.metadata().catch((err: unknown) =>
    core.logger.warn(
      { issuer: options.issuer.href, reason: (err as Error).message },
      'oidc discovery failed; retried on use',
    ),
  );
  return {
    options,
    signIn,
    recheck,
    async method() {
      const { available, detail } = await rp.availability();
      return {
        name: options.name,
        loginPath: OIDC_LOGIN_PATH,
        available,
        ...(detail !== undefined ? { detail } : {}),
      };
    },
    sweep,
    close() {
      clearInterval(timer);
    },
  };
}
