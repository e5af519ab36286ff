import type { DatabaseSync } from 'node:sqlite';

/**
 * The database schema, as the steps that build it. `PRAGMA user_version` holds how many steps a
 * database has had. On open, each missing step runs in its own transaction together with the
 * version bump, so a step is either wholly applied or not at all, and a start killed halfway
 * resumes at the step it was in. A database with a higher version than this code knows was
 * written by a newer Skiff: it is refused, untouched.
 *
 * Rules for adding tables (event history, snapshots): append a step; never edit or reorder a
 * step that has shipped. Times are epoch milliseconds (INTEGER); structured values that are only
 * ever read whole are JSON text.
 *
 * Version 1, authentication and its activity log:
 * - auth_meta(key PK, value JSON): the token signing key (`signingKey`).
 * - accounts(account_id PK, username UNIQUE, role, workspaces JSON, password_hash, created_at,
 *   password_changed_at).
 * - sessions(session_id PK, account_id → accounts ON DELETE CASCADE, status, client JSON,
 *   first_login_at, last_seen_at, expires_at, absolute_expires_at, ended_at, end_reason,
 *   refresh_hash, refresh_generation, refresh_rotated_at, refresh_previous_hash);
 *   indexes on (account_id, first_login_at) and on ended_at (retention).
 * - refresh_tokens(hash PK, session_id → sessions ON DELETE CASCADE, generation): every refresh
 *   token hash of a session's family, the current one included (the newest 201 per session), to
 *   recognise reuse; index on (session_id, generation).
 * - api_keys(api_key_id PK, account_id → accounts ON DELETE CASCADE, name, hash UNIQUE, hint,
 *   workspaces JSON or NULL, created_at, expires_at, last_used_at, revoked_at); index on account_id.
 * - activity(seq INTEGER PK, activity_id UNIQUE, type, at, account_id, session_id, api_key_id,
 *   actor_account_id, actor_session_id, client JSON, detail): no foreign keys, so entries of a
 *   session that was since forgotten stay readable; indexes on (at, seq), (account_id, at) and
 *   (type, at).
 *
 * Version 2, the event history (service/events/history/): every Kubernetes event the service saw.
 * - event_history(id INTEGER PK, cluster_id, event_id, last_ms, first_ms, type, reason,
 *   namespace, kind, kind_key (kind lower-cased, the filter's key), name, resource_id,
 *   first_timestamp, last_timestamp, count, message, component, host, recorded_at, expired_at):
 *   one row per (cluster_id, event_id), the record's fields as the live list serves them;
 *   expired_at is set once the cluster no longer has the event (NULL while it does). The category
 *   (resource/system) is namespace <> '' / = ''. Indexes: event_history_order on (cluster_id,
 *   last_ms DESC, event_id, type, namespace, kind_key, reason, name) gives the list's order and
 *   holds every filtered column, so a filtered page or total is read from that index alone;
 *   (cluster_id, namespace, last_ms DESC, event_id) and (cluster_id, name, last_ms DESC,
 *   event_id) serve the narrow filters of a namespace's or an object's events. Few indexes on
 *   purpose: each one costs every recorded change.
 *
 * Version 3, what the conf file (skiff.json) held, shared by replicas (workspaces/store.ts):
 * - workspaces(workspace_id PK, name, cluster_ids JSON array or NULL for every cluster, position
 *   (display order), updated_at): one row per workspace, so two replicas editing two workspaces
 *   never overwrite each other.
 * - cluster_ids(context PK, cluster_id): a context's id, kept once assigned (first writer wins).
 * - cluster_monitoring(cluster_id PK, resource_events, system_events 0/1, updated_at).
 * - service_settings(key PK, value JSON, updated_at): the service's own settings (appSettings),
 *   and `imported.conf`, set once the conf file's data was copied in.
 *
 * Version 4, what replicas share for authentication (auth/signing-keys.ts, auth/login-limits.ts):
 * - auth_signing_keys(kid PK, generation (unique index), public_jwk JSON, private_key (a compact
 *   JWE under the secret key when sealed = 1; the JWK's JSON when sealed = 0, SQLite without a
 *   secret key only), sealed, created_at): the newest generation signs access tokens, every row
 *   verifies them. The key auth_meta held before moves here once, keeping its kid.
 * - auth_login_hits(id INTEGER PK, key, at, expires_at): the sliding-window login limits' stamps,
 *   one row per counted attempt; indexes on (key, at) and expires_at (the sweep).
 * - auth_login_failures(key PK, count, last_at): failed password checks per account and source;
 *   index on last_at (the sweep).
 *
 * Version 5, snapshot capture jobs (snapshots/jobs.ts), shared by every replica:
 * - snapshot_jobs(snapshot_id PK, status, workspace_id, cluster_id, context, file_name (the
 *   download's name), replica_id (who runs or ran it), started_at, heartbeat_at (the owner's last
 *   sign of life while running), finished_at, size_bytes, progress JSON, missing JSON, error).
 *   A unique partial index on cluster_id WHERE status = 'running' makes "one capture per cluster"
 *   hold across replicas without a lock; finished_at (partial) orders what retention forgets.
 *
 * Version 6, the refresh overlap shared by replicas (auth/refresh-grace.ts):
 * - sessions.refresh_grace: the pair the current refresh token was issued as, sealed with a key
 *   derived from the token it replaced (NULL before the first rotation and once the session ends),
 *   so that whichever replica the replaced token reaches within the overlap window answers with
 *   that same pair.
 *
 * Version 7, sign-in with an OpenID Provider (auth/oidc/):
 * - accounts.source ('local' | 'oidc') and accounts.oidc_groups (JSON array: the groups the
 *   provider last gave; [] for local accounts).
 * - workspaces.member_groups (JSON array): provider groups whose members belong to the workspace.
 * - oidc_flows(state_hash PK, browser_hash, nonce, code_verifier, return_to, created_at,
 *   expires_at): a sign-in under way, so any replica can finish it; deleted when used (single use).
 *   Index on expires_at (the sweep).
 * - oidc_codes(code_hash PK, sealed, expires_at): the one-time codes the callback hands the page,
 *   each holding the login's tokens sealed with a key derived from the code itself.
 * - oidc_links(account_id PK → accounts ON DELETE CASCADE, issuer, subject, refresh_token (a
 *   compact JWE under the secret key, or NULL when the provider gave none), checked_at,
 *   next_check_at): what the recheck asks the provider about; index on next_check_at.
 * - snapshot_jobs.taker: the account that started the capture (NULL before), which `--authorize
 *   rbac` lets download its own file (operations/snapshots.ts).
 */

export interface Migration {
  version: number;
  description: string;
  sql: string;
}

export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    description: 'authentication state and the security activity log',
    sql: `
      CREATE TABLE auth_meta (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL
      ) STRICT;
      CREATE TABLE accounts (
        account_id TEXT PRIMARY KEY,
        username TEXT NOT NULL UNIQUE,
        role TEXT NOT NULL CHECK (role IN ('admin', 'member')),
        workspaces TEXT NOT NULL,
        password_hash TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        password_changed_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE sessions (
        session_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
        status TEXT NOT NULL CHECK (status IN ('active', 'expired', 'logged_out')),
        client TEXT NOT NULL,
        first_login_at INTEGER NOT NULL,
        last_seen_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        absolute_expires_at INTEGER NOT NULL,
        ended_at INTEGER,
        end_reason TEXT,
        refresh_hash TEXT NOT NULL,
        refresh_generation INTEGER NOT NULL,
        refresh_rotated_at INTEGER NOT NULL,
        refresh_previous_hash TEXT
      ) STRICT;
      CREATE INDEX sessions_by_account ON sessions (account_id, first_login_at);
      CREATE INDEX sessions_by_end ON sessions (ended_at) WHERE ended_at IS NOT NULL;
      CREATE TABLE refresh_tokens (
        hash TEXT PRIMARY KEY,
        session_id TEXT NOT NULL REFERENCES sessions (session_id) ON DELETE CASCADE,
        generation INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX refresh_tokens_by_session ON refresh_tokens (session_id, generation);
      CREATE TABLE api_keys (
        api_key_id TEXT PRIMARY KEY,
        account_id TEXT NOT NULL REFERENCES accounts (account_id) ON DELETE CASCADE,
        name TEXT NOT NULL,
        hash TEXT NOT NULL UNIQUE,
        hint TEXT NOT NULL,
        workspaces TEXT,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL,
        last_used_at INTEGER,
        revoked_at INTEGER
      ) STRICT;
      CREATE INDEX api_keys_by_account ON api_keys (account_id);
      CREATE TABLE activity (
        seq INTEGER PRIMARY KEY,
        activity_id TEXT NOT NULL UNIQUE,
        type TEXT NOT NULL,
        at INTEGER NOT NULL,
        account_id TEXT NOT NULL,
        session_id TEXT,
        api_key_id TEXT,
        actor_account_id TEXT,
        actor_session_id TEXT,
        client TEXT,
        detail TEXT
      ) STRICT;
      CREATE INDEX activity_by_time ON activity (at, seq);
      CREATE INDEX activity_by_account ON activity (account_id, at);
      CREATE INDEX activity_by_type ON activity (type, at);
    `,
  },
  {
    version: 2,
    description: 'the event history',
    sql: `
      CREATE TABLE event_history (
        id INTEGER PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        event_id TEXT NOT NULL,
        last_ms INTEGER NOT NULL,
        first_ms INTEGER NOT NULL,
        type TEXT NOT NULL CHECK (type IN ('NORMAL', 'WARNING')),
        reason TEXT NOT NULL,
        namespace TEXT NOT NULL,
        kind TEXT NOT NULL,
        kind_key TEXT NOT NULL,
        name TEXT NOT NULL,
        resource_id TEXT NOT NULL,
        first_timestamp TEXT NOT NULL,
        last_timestamp TEXT NOT NULL,
        count INTEGER NOT NULL,
        message TEXT NOT NULL,
        component TEXT NOT NULL,
        host TEXT NOT NULL,
        recorded_at INTEGER NOT NULL,
        expired_at INTEGER,
        UNIQUE (cluster_id, event_id)
      ) STRICT;
      CREATE INDEX event_history_order
        ON event_history (cluster_id, last_ms DESC, event_id, type, namespace, kind_key, reason, name);
      CREATE INDEX event_history_by_namespace ON event_history (cluster_id, namespace, last_ms DESC, event_id);
      CREATE INDEX event_history_by_name ON event_history (cluster_id, name, last_ms DESC, event_id);
    `,
  },
  {
    version: 3,
    description: 'workspaces, monitoring flags and service settings',
    sql: `
      CREATE TABLE workspaces (
        workspace_id TEXT PRIMARY KEY,
        name TEXT NOT NULL,
        cluster_ids TEXT,
        position INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE cluster_ids (
        context TEXT PRIMARY KEY,
        cluster_id TEXT NOT NULL
      ) STRICT;
      CREATE TABLE cluster_monitoring (
        cluster_id TEXT PRIMARY KEY,
        resource_events INTEGER NOT NULL,
        system_events INTEGER NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
      CREATE TABLE service_settings (
        key TEXT PRIMARY KEY,
        value TEXT NOT NULL,
        updated_at INTEGER NOT NULL
      ) STRICT;
    `,
  },
  {
    version: 4,
    description: 'signing keys and login limits shared by replicas',
    sql: `
      CREATE TABLE auth_signing_keys (
        kid TEXT PRIMARY KEY,
        generation INTEGER NOT NULL,
        public_jwk TEXT NOT NULL,
        private_key TEXT NOT NULL,
        sealed INTEGER NOT NULL,
        created_at INTEGER NOT NULL
      ) STRICT;
      CREATE UNIQUE INDEX auth_signing_keys_generation ON auth_signing_keys (generation);
      CREATE TABLE auth_login_hits (
        id INTEGER PRIMARY KEY,
        key TEXT NOT NULL,
        at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX auth_login_hits_by_key ON auth_login_hits (key, at);
      CREATE INDEX auth_login_hits_by_expiry ON auth_login_hits (expires_at);
      CREATE TABLE auth_login_failures (
        key TEXT PRIMARY KEY,
        count INTEGER NOT NULL,
        last_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX auth_login_failures_by_last ON auth_login_failures (last_at);
    `,
  },
  {
    version: 5,
    description: 'snapshot capture jobs',
    sql: `
      CREATE TABLE snapshot_jobs (
        snapshot_id TEXT PRIMARY KEY,
        status TEXT NOT NULL CHECK (status IN ('running', 'done', 'failed')),
        workspace_id TEXT NOT NULL,
        cluster_id TEXT NOT NULL,
        context TEXT NOT NULL,
        file_name TEXT NOT NULL,
        replica_id TEXT NOT NULL,
        started_at INTEGER NOT NULL,
        heartbeat_at INTEGER NOT NULL,
        finished_at INTEGER,
        size_bytes INTEGER,
        progress TEXT NOT NULL,
        missing TEXT NOT NULL,
        error TEXT
      ) STRICT;
      CREATE UNIQUE INDEX snapshot_jobs_running_cluster ON snapshot_jobs (cluster_id) WHERE status = 'running';
      CREATE INDEX snapshot_jobs_by_finish ON snapshot_jobs (finished_at) WHERE finished_at IS NOT NULL;
    `,
  },
  {
    version: 6,
    description: 'the refresh overlap shared by replicas',
    sql: `
      ALTER TABLE sessions ADD COLUMN refresh_grace TEXT;
    `,
  },
  {
    version: 7,
    description: 'sign-in with an OpenID Provider',
    sql: `
      ALTER TABLE accounts ADD COLUMN source TEXT NOT NULL DEFAULT 'local';
      ALTER TABLE accounts ADD COLUMN oidc_groups TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE workspaces ADD COLUMN member_groups TEXT NOT NULL DEFAULT '[]';
      ALTER TABLE snapshot_jobs ADD COLUMN taker TEXT;
      CREATE TABLE oidc_flows (
        state_hash TEXT PRIMARY KEY,
        browser_hash TEXT NOT NULL,
        nonce TEXT NOT NULL,
        code_verifier TEXT NOT NULL,
        return_to TEXT NOT NULL,
        created_at INTEGER NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX oidc_flows_by_expiry ON oidc_flows (expires_at);
      CREATE TABLE oidc_codes (
        code_hash TEXT PRIMARY KEY,
        sealed TEXT NOT NULL,
        expires_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX oidc_codes_by_expiry ON oidc_codes (expires_at);
      CREATE TABLE oidc_links (
        account_id TEXT PRIMARY KEY REFERENCES accounts (account_id) ON DELETE CASCADE,
        issuer TEXT NOT NULL,
        subject TEXT NOT NULL,
        refresh_token TEXT,
        checked_at INTEGER NOT NULL,
        next_check_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX oidc_links_by_next_check ON oidc_links (next_check_at);
    `,
  },
  {
    version: 8,
    description: 'what the cluster forgets: object changes, usage samples, kept logs',
    sql: `
      -- history/changes: one row per recorded ADDED/MODIFIED/DELETED of an object. patch is an RFC
      -- 6902 JSON Patch (JSON text) from the previous recorded version; object is the whole object
      -- (JSON text) at first sight and after every N changes, so any version can be rebuilt.
      CREATE TABLE change_history (
        id INTEGER PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        time_ms INTEGER NOT NULL,
        resource_type TEXT NOT NULL,
        kind TEXT NOT NULL,
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        uid TEXT NOT NULL,
        change TEXT NOT NULL CHECK (change IN ('created', 'updated', 'deleted', 'seen')),
        resource_version TEXT NOT NULL,
        patch TEXT NOT NULL,
        summary TEXT NOT NULL,
        object TEXT,
        recorded_at INTEGER NOT NULL
      ) STRICT;
      CREATE INDEX change_history_order ON change_history (cluster_id, time_ms DESC, id DESC);
      CREATE INDEX change_history_by_object
        ON change_history (cluster_id, resource_type, namespace, name, time_ms DESC, id DESC);
      CREATE INDEX change_history_by_namespace ON change_history (cluster_id, namespace, time_ms DESC, id DESC);
      CREATE INDEX change_history_by_kind ON change_history (cluster_id, resource_type, time_ms DESC, id DESC);
      -- history/usage: one row per sample of a pod or a node; containers is JSON text
      -- {name: {cpuMillicores, memoryBytes}} (a node's one entry is named after the node).
      CREATE TABLE usage_samples (
        cluster_id TEXT NOT NULL,
        subject TEXT NOT NULL CHECK (subject IN ('pod', 'node')),
        namespace TEXT NOT NULL,
        name TEXT NOT NULL,
        time_ms INTEGER NOT NULL,
        resolution_ms INTEGER NOT NULL,
        containers TEXT NOT NULL,
        PRIMARY KEY (cluster_id, subject, namespace, name, time_ms)
      ) STRICT;
      CREATE INDEX usage_samples_by_time ON usage_samples (cluster_id, resolution_ms, time_ms);
      -- history/kept-logs: the last lines of a container instance that terminated.
      CREATE TABLE kept_logs (
        id INTEGER PRIMARY KEY,
        cluster_id TEXT NOT NULL,
        namespace TEXT NOT NULL,
        pod TEXT NOT NULL,
        pod_uid TEXT NOT NULL,
        container TEXT NOT NULL,
        restart_count INTEGER NOT NULL,
        finished_at TEXT,
        finished_ms INTEGER NOT NULL,
        exit_code INTEGER,
        reason TEXT NOT NULL,
        lines TEXT NOT NULL,
        line_count INTEGER NOT NULL,
        bytes INTEGER NOT NULL,
        kept_at INTEGER NOT NULL,
        UNIQUE (cluster_id, namespace, pod, pod_uid, container, restart_count)
      ) STRICT;
      CREATE INDEX kept_logs_by_pod ON kept_logs (cluster_id, namespace, pod, finished_ms DESC);
      CREATE INDEX kept_logs_by_age ON kept_logs (cluster_id, kept_at, id);
    `,
  },
];

export const SCHEMA_VERSION = MIGRATIONS.at(-1)!.version;

export class DatabaseVersionError extends Error {}

const versionOf = (db: DatabaseSync) =>
  Number((db.prepare('PRAGMA user_version').get() as { user_version: number }).user_version);

/**
 * Brings `db` to SCHEMA_VERSION. `beforeWriting` runs once the version is known to be one this
 * code can handle, before the first write (journal mode changes write the file too).
 */
export function migrate(db: DatabaseSync, path: string, beforeWriting: () => void = () => {}): number {
  const found = versionOf(db);
  if (found > SCHEMA_VERSION) {
    throw new DatabaseVersionError(
      `${path}: the database has schema version ${found}, and this Skiff knows versions up to ${SCHEMA_VERSION}. ` +
        'It was written by a newer Skiff; run that one, or move the file away to start afresh. It was not changed.',
    );
  }
  beforeWriting();
  for (const step of MIGRATIONS) {
    if (step.version <= found) continue;
    db.exec('BEGIN IMMEDIATE');
    try {
      // Read again inside the lock: another process may have migrated while this one waited.
      if (versionOf(db) < step.version) {
        db.exec(step.sql);
        db.exec(`PRAGMA user_version = ${step.version}`);
      }
      db.exec('COMMIT');
    } catch (err) {
      if (db.isTransaction) db.exec('ROLLBACK');
      throw err;
    }
  }
  return versionOf(db);
}
