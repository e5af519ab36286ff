/**
 * Readiness (`GET /v1/health/ready`), kept apart from liveness (`GET /v1/health`): a replica is
 * ready when every check passes and it is not shutting down; alive as long as it answers at all,
 * so a database outage takes replicas out of a Service without restarting them. Rules:
 * - Checks are added by what owns the dependency (the storage's ping); they run at once, each
 *   bounded by CHECK_TIMEOUT_MS, so a probe never waits on a hung database (the kubelet's own
 *   timeout would count that as a failure anyway, but without saying why).
 * - A check that throws or does not answer in time counts as failed, with the reason said.
 * - Once draining (SIGTERM), the replica answers not ready whatever the checks say, so the
 *   endpoints drop it while its requests in flight finish.
 * - Not ready is 503 `service_not_ready` in problem+json, naming every check and its reason;
 *   never a hang, never a bare status.
 */
import { ProblemError } from './errors';

/** What one check says: `reason` says why it failed (never a password or URL with one). */
export interface CheckResult {
  ok: boolean;
  reason?: string;
}

export interface ReadinessCheck {
  /** A short name for the answer, e.g. `database`. */
  name: string;
  check(signal: AbortSignal): Promise<CheckResult>;
}

export interface CheckOutcome {
  name: string;
  ok: boolean;
  reason?: string;
}

export interface ReadyAnswer {
  status: 'ready';
  checks: CheckOutcome[];
}

/** A readiness probe must answer well within the kubelet's timeoutSeconds (3 s in deploy/). */
export const CHECK_TIMEOUT_MS = 2_000;

/** How long a client told not ready waits before asking again (Retry-After). */
export const RETRY_AFTER_SECONDS = 5;

export class Readiness {
  private readonly checks: ReadinessCheck[] = [];
  private draining = false;

  constructor(private readonly timeoutMs = CHECK_TIMEOUT_MS) {}

  /** Adds a check every probe from now on runs. */
  add(check: ReadinessCheck): void {
    this.checks.push(check);
  }

  /** Shutting down: every probe from now on answers not ready. */
  drain(): void {
    this.draining = true;
  }

  /** The answer when ready; otherwise throws 503 service_not_ready naming what failed. */
  async probe(): Promise<ReadyAnswer> {
    const checks = await Promise.all(this.checks.map((c) => this.run(c)));
    const failed = checks.filter((c) => !c.ok);
    if (this.draining || failed.length > 0) {
      const why = this.draining
        ? 'the service is shutting down'
        : failed.map((c) => `${c.name}: ${c.reason}`).join('; ');
      throw new ProblemError(
        'service_not_ready',
        `not ready: ${why}`,
        { checks, draining: this.draining },
        { 'Retry-After': String(RETRY_AFTER_SECONDS) },
      );
    }
    return { status: 'ready', checks };
  }

  private async run(c: ReadinessCheck): Promise<CheckOutcome> {
    const abort = new AbortController();
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<CheckResult>((resolve) => {
      timer = setTimeout(() => {
        abort.abort();
        resolve({ ok: false, reason: `no answer within ${this.timeoutMs / 1000} s` });
      }, this.timeoutMs);
    });
    try {
      const result = await Promise.race([c.check(abort.signal), late]);
      return result.ok
        ? { name: c.name, ok: true }
        : { name: c.name, ok: false, reason: result.reason ?? 'failed' };
    } catch (err) {
      return { name: c.name, ok: false, reason: err instanceof Error ? err.message : String(err) };
    } finally {
      clearTimeout(timer);
    }
  }
}
