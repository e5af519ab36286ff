// @ts-check
/**
 * The batches `npm run test:mutation` runs (tools/mutation/run.mjs): every module of
 * src-main/service and src-shared belongs to exactly one batch, run against the test files of its
 * own area. One Stryker run over everything against the whole suite takes days on two cores: every
 * surviving mutant of a module the integration harness loads reruns every integration file. A batch
 * takes minutes to an hour, keeps its own incremental file, and can be run again on its own.
 *
 * A batch's score is what *its* test files catch: a mutant only a test of another area would kill
 * counts as survived. That is the stricter figure, and the one that says where a rule's own tests
 * are missing.
 *
 * Left out of every batch: tests that run the built service as a child process (src-main/cli), which
 * no mutant reaches, and the 60 s flapping-cluster test, which would cost a minute per survivor.
 */

/** @typedef {{ name: string, mutate: string[], tests: string[] }} MutationBatch */

// Integration tests sit beside the code they exercise (issue 24): `it(['cache/list-order'])` names
// src-main/service/cache/list-order.it.test.ts. `unit('cache')` is a folder's unit tests without its
// integration tests, for batches that pick only some of a folder's *.it.test.ts.
const it = (names) => names.map((n) => `src-main/service/${n}.it.test.ts`);
const unit = (dir) => ['src-main/service', dir, '!(*.it).test.ts'].filter(Boolean).join('/');

/** @type {MutationBatch[]} */
export const batches = [
  {
    name: 'shared',
    mutate: ['src-shared/**/*.ts'],
    tests: [
      'src-shared/**/*.test.ts',
      ...it(['errors', 'pagination', 'cache/selectors']),
      'src-main/service/events/events.it.test.ts',
      'src-main/service/logs/query.it.test.ts',
      // The shared code's other users: the IPC bridge, the renderer's stream readers and views, and
      // the activity export (first run without these: ipc/ and several contract modules had no coverage).
      'src-main/electron/*.test.ts',
      'src-renderer/**/*.test.{ts,tsx}',
      'src-main/service/auth/activity.it.test.ts',
    ],
  },
  {
    name: 'auth',
    // The session probe (operations/session.ts) answers from auth's state; its tests are auth's.
    mutate: [
      'src-main/service/auth/**/*.ts',
      'src-main/service/operations/auth*.ts',
      'src-main/service/operations/session.ts',
    ],
    tests: ['src-main/service/auth/*.test.ts'],
  },
  {
    name: 'clusters',
    mutate: [
      'src-main/service/clusters/**/*.ts',
      // The kube client and the cache came out of clusters/ (issue 24); their tests are the same.
      'src-main/service/kube/**/*.ts',
      'src-main/service/cache/**/*.ts',
      'src-main/service/operations/resources.ts',
      'src-main/service/operations/workspaces.ts',
      'src-main/service/operations/kinds.ts',
      'src-main/service/workspaces/**/*.ts',
    ],
    tests: [
      unit('clusters'),
      'src-main/service/clusters/discovery/*.test.ts',
      unit('kube'),
      unit('cache'),
      'src-main/service/workspaces/*.test.ts',
      ...it([
        'kube/cluster-connections',
        'kube/cluster-credentials',
        'clusters/faults-down',
        'clusters/faults-recovery',
        'proxy',
        'cache/list-order',
        'cache/selectors',
        'pagination',
        'last-page',
        'cache/single-reads',
        'clusters/kinds',
        // The cluster operations' other rules: monitoring flags (events), workspaces (settings),
        // and a snapshot's cluster entry (snapshot-open).
        'settings/settings',
        'snapshots/snapshot-open',
      ]),
      'src-main/service/events/events.it.test.ts',
    ],
  },
  {
    name: 'relations',
    // Relations, counts and palette search (issue 23 §6): the pure modules against their unit
    // tests, the cluster side and the handlers against the HTTP and IPC tests.
    mutate: ['src-main/service/relations/**/*.ts', 'src-main/service/operations/relations.ts'],
    // Unit and integration tests (relations.it, relations-proxy.it) alike.
    tests: ['src-main/service/relations/*.test.ts'],
  },
  {
    name: 'events',
    mutate: [
      // The events feature: normalise, entries, feed, filter, reads, the watch and the history.
      'src-main/service/events/**/*.ts',
      'src-main/service/storage/**/*.ts',
      'src-main/service/operations/event*.ts',
      'src-main/service/operations/guidance.ts',
      // Explanations of any object (issue 23): the knowledge base's service side.
      'src-main/service/explain/**/*.ts',
      'src-main/service/operations/explain.ts',
    ],
    tests: [
      // explain.it.test.ts included.
      'src-main/service/explain/*.test.ts',
      // Its unit and integration tests sit beside it (events/**/*.it.test.ts included).
      'src-main/service/events/**/*.test.ts',
      'src-main/service/storage/*.test.ts',
      // Durations on a snapshot count back from when it was taken (events/clock.ts).
      ...it(['snapshots/snapshot-durations']),
    ],
  },
  {
    name: 'logs',
    mutate: ['src-main/service/logs/**/*.ts', 'src-main/service/operations/logs.ts'],
    tests: ['src-main/service/logs/*.test.ts'],
  },
  {
    name: 'snapshots',
    mutate: ['src-main/service/snapshots/**/*.ts', 'src-main/service/operations/snapshot*.ts'],
    // Unit and integration tests (snapshot-*.it.test.ts) alike.
    tests: ['src-main/service/snapshots/*.test.ts'],
  },
  {
    name: 'history',
    // What Skiff records beyond events (issue 27): object changes, usage samples, kept logs, the
    // diagnosis, their handlers, and the snapshot-independent seam (history/hooks, source, keyset).
    mutate: [
      'src-main/service/history/**/*.ts',
      'src-main/service/operations/changes.ts',
      'src-main/service/operations/usage.ts',
      'src-main/service/operations/kept-logs.ts',
      'src-main/service/operations/diagnosis.ts',
    ],
    // Unit and integration tests alike, and the handlers' own.
    tests: [
      'src-main/service/history/**/*.test.ts',
      'src-main/service/operations/usage*.test.ts',
      'src-main/service/operations/*changes*.test.ts',
      'src-main/service/operations/*kept-logs*.test.ts',
      'src-main/service/operations/*diagnosis*.test.ts',
    ],
  },
  {
    name: 'api',
    mutate: [
      'src-main/service/*.ts',
      'src-main/service/http/**/*.ts',
      'src-main/service/openapi/**/*.ts',
      'src-main/service/settings/**/*.ts',
      'src-main/service/operations/index.ts',
      'src-main/service/operations/settings.ts',
    ],
    tests: [
      unit(''),
      // With their integration tests: http's, openapi's (openapi.it, examples.it), settings' (all three).
      'src-main/service/http/*.test.ts',
      'src-main/service/openapi/*.test.ts',
      'src-main/service/settings/*.test.ts',
      'src-main/service/test-support/contract-check.test.ts',
      ...it(['errors', 'health', 'pagination', 'last-page']),
    ],
  },
];
