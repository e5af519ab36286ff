import type { AuthService } from '../auth/index';
import type { ClusterRegistry } from '../clusters/registry';
import type { OperationHandlers } from '../context';
import type { EventHistory } from '../events/history/index';
import type { Recorded } from '../history/index';
import type { AppSettingsDeps } from '../settings/app-settings';
import type { SnapshotJobs } from '../snapshots/jobs';
import type { SnapshotOpener } from '../snapshots/open';
import { authHandlers } from './auth';
import { authActivityHandlers } from './auth-activity';
import { authAdminHandlers } from './auth-admin';
import { oidcHandlers } from './auth-oidc';
import { changeHandlers } from './changes';
import { diagnosisHandlers } from './diagnosis';
import type { EventWatchHandlers } from './event-watch';
import { eventHandlers } from './events';
import { explainHandlers } from './explain';
import { guidanceHandlers } from './guidance';
import { keptLogHandlers } from './kept-logs';
import { kindsHandlers } from './kinds';
import { logHandlers } from './logs';
import { relationsHandlers } from './relations';
import { resourceHandlers } from './resources';
import { sessionHandlers } from './session';
import { settingsHandlers } from './settings';
import { snapshotHandlers } from './snapshots';
import { usageHandlers } from './usage';
import { workspaceHandlers } from './workspaces';

export const SERVICE_VERSION = '0.1.0';

export function createHandlers(
  registry: ClusterRegistry,
  auth: AuthService,
  settings: AppSettingsDeps,
  history: EventHistory,
  snapshots: SnapshotJobs,
  now: () => number = Date.now,
  eventWatch: EventWatchHandlers,
  opener: SnapshotOpener,
  // Object changes, usage and kept logs (history/): each feature's handlers read their slot here.
  recorded?: Recorded,
  // Readiness is the service's own (readiness.ts), wired beside these in createService.
): Omit<OperationHandlers, 'healthReady'> {
  return {
    ...authHandlers(auth),
    ...authActivityHandlers(auth),
    ...authAdminHandlers(auth),
    ...oidcHandlers(auth),
    ...sessionHandlers(auth),
    health: async () => ({
      data: {
        status: 'ok',
        version: SERVICE_VERSION,
        replica: history.replicaId,
        recording: history.recordingClusters(),
      },
    }),
    ...workspaceHandlers(registry),
    ...resourceHandlers(registry),
    ...eventHandlers(registry, history, now),
    watchEvents: eventWatch.watchEvents,
    ...logHandlers(registry, recorded?.keptLogs ? { tails: recorded.keptLogs.tails } : {}),
    ...settingsHandlers(registry, settings),
    ...guidanceHandlers(),
    ...explainHandlers(registry),
    ...kindsHandlers(registry),
    ...relationsHandlers(registry),
    ...keptLogHandlers(registry, recorded),
    ...usageHandlers(registry, recorded, now),
    ...changeHandlers(registry, recorded, eventWatch.options, now),
    ...diagnosisHandlers(registry, history, recorded, now),
    ...snapshotHandlers({
      registry,
      history,
      jobs: snapshots,
      opener,
      ...(recorded ? { recorded } : {}),
    }),
  };
}
