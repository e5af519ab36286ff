/**
 * Staying honest about users removed at the provider. Rules:
 * - An OIDC account is asked about again (a refresh at the provider, with the sealed refresh
 *   token) at most every `--oidc-recheck`: at a Skiff refresh once it is due, and by a background
 *   sweep, so an access token that is merely used (never refreshed) is cut within the bound too.
 * - A recheck is claimed first (links.ts), so replicas never spend one refresh token twice; a
 *   claim left by a replica that died lapses after CLAIM_MS and the next sweep takes it.
 * - The provider refusing the token (invalid_grant: the user is gone, disabled, or its grant
 *   revoked), or no refresh token to ask with, ends every session of the account with end reason
 *   `oidc_access_removed`, and the activity log says why. A provider that cannot be reached
 *   changes nothing: the sessions stay, the recheck is retried after RETRY_MS, and it is logged.
 * - New groups (and the role they give with `--oidc-admin-groups`) apply at once; a change is
 *   recorded as `oidc_groups_changed`.
 */
import { ProblemError } from '../../errors';
import type { AuthCore } from '../core';
import { groupsOf, roleOf, sameGroups } from './claims';
import { claimRecheck, dueLinks, type Link, loadLink, saveChecked, type TokenSeal } from './links';
import type { OidcFailure, RelyingParty } from './relying-party';

export const CLAIM_MS = 60_000;
export const RETRY_MS = 60_000;
const SWEEP_BATCH = 50;

export type RecheckOutcome = 'not_due' | 'claimed_elsewhere' | 'kept' | 'removed' | 'retry' | 'idle';

export class Recheck {
  constructor(
    private readonly core: AuthCore,
    private readonly rp: RelyingParty,
    private readonly seal: TokenSeal,
  ) {}

  /** At a Skiff refresh: rechecks when due; throws oidc_access_removed when the user lost access. */
  async onRefresh(accountId: string): Promise<void> {
    // Local accounts have nothing to recheck: no query for them.
    if (this.core.accounts.get(accountId)?.source === 'local') return;
    const link = await loadLink(this.core.backend, accountId);
    if (!link || link.nextCheckAt > this.core.now()) return;
    if ((await this.check(link)) === 'removed')
      throw new ProblemError(
        'oidc_access_removed',
        'the identity provider no longer accepts this user; sign in again',
      );
  }

  /** Every due recheck, one after the other (a bounded batch per call). */
  async sweep(): Promise<RecheckOutcome[]> {
    const due = await dueLinks(this.core.backend, this.core.now(), SWEEP_BATCH);
    const outcomes: RecheckOutcome[] = [];
    for (const link of due) outcomes.push(await this.check(link));
    return outcomes;
  }

  async check(link: Link): Promise<RecheckOutcome> {
    const { core } = this;
    const now = core.now();
    if (link.nextCheckAt > now) return 'not_due';
    if (!(await claimRecheck(core.backend, link, now + CLAIM_MS))) return 'claimed_elsewhere';
    const account = await core.accounts.lookup(link.accountId);
    const live = account
      ? (await core.sessions.listFor(link.accountId, false)).filter((s) => s.status === 'active')
      : [];
    if (!account || live.length === 0) {
      // Nobody to cut off: ask again when a session exists (a sign-in resets the schedule).
      await saveChecked(
        core.backend,
        link.accountId,
        link.refreshToken,
        link.checkedAt,
        now + this.rp.options.recheckMs,
      );
      return 'idle';
    }
    const token = link.refreshToken === null ? undefined : this.seal.open(link.accountId, link.refreshToken);
    if (token === undefined) {
      await this.remove(
        link,
        link.refreshToken === null
          ? 'the identity provider gave no refresh token to check the user with (add offline_access to --oidc-scopes); sign in again'
          : 'the stored provider refresh token cannot be opened (was the secret key changed?); sign in again',
      );
      return 'removed';
    }
    try {
      const fresh = await this.rp.refresh(token);
      const groups = fresh.claimsFresh ? groupsOf(fresh.claims, this.rp.options.groupsClaim) : account.groups;
      const updated = await core.accounts.upsertOidc(
        account.username,
        groups,
        roleOf(groups, this.rp.options.adminGroups),
      );
      const sealed =
        fresh.refreshToken === undefined ? null : this.seal.seal(link.accountId, fresh.refreshToken);
      await saveChecked(core.backend, link.accountId, sealed, now, now + this.rp.options.recheckMs);
      if (!sameGroups(account.groups, groups) || updated.role !== account.role) {
        await core.activity.record({
          type: 'oidc_groups_changed',
          accountId: link.accountId,
          detail: `${this.rp.options.name} now gives groups: ${groups.length ? groups.join(', ') : 'none'} (was: ${account.groups.join(', ') || 'none'}); role ${updated.role}`,
        });
      }
      return 'kept';
    } catch (err) {
      const failure = err as OidcFailure;
      if (failure.kind === 'rejected') {
        await this.remove(link, `the identity provider refused the user's refresh token: ${failure.message}`);
        return 'removed';
      }
      core.logger.warn(
        { accountId: link.accountId, failure: failure.kind, reason: failure.message },
        'oidc recheck failed; the sessions stay, and it is retried',
      );
      await saveChecked(core.backend, link.accountId, link.refreshToken, link.checkedAt, now + RETRY_MS);
      return 'retry';
    }
  }

  private async remove(link: Link, why: string): Promise<void> {
    const { core } = this;
    const ended = await core.sessions.endAllFor(link.accountId, 'oidc_access_removed');
    for (const s of ended) core.issuer.forgetSession(s);
    await saveChecked(core.backend, link.accountId, null, core.now(), core.now() + this.rp.options.recheckMs);
    await core.activity.record({
      type: 'oidc_access_removed',
      accountId: link.accountId,
      detail: `${why}; ${ended.length} session(s) ended`,
    });
    core.logger.warn({ accountId: link.accountId, ended: ended.length, reason: why }, 'oidc access removed');
  }
}
