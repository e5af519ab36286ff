import { useCallback, useEffect } from 'react';
import { ApiError } from '../../../api';
import type { Scope } from '../../../api/queries';
import { getOne } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { isBuiltInType, unknownEntry } from '../../../kube/kind-catalog';
import { api } from '../../../state/connection';
import { useKindEntry } from '../../../state/kinds';
import { type DetailTab, type ResourceRef, useRoute } from '../../../state/route';
import { Badge } from '../../common/Badge';
import { Loading, ProblemNotice } from '../../common/Problem';
import { type TabDef, Tabs } from '../../common/Tabs';
import { GuidanceActions } from '../../guidance/actions';
import { useObjectActions } from '../../guidance/useObjectActions';
import { HistoryTab } from '../../history/HistoryTab';
import { KeptRuns } from '../../logs/KeptRuns';
import { detailsFor } from '../registry';
import { OwnersBreadcrumb } from '../related/OwnersBreadcrumb';
import { RelatedTab } from '../related/RelatedTab';
import { useRelations } from '../related/useRelations';
import { useEscapeCloses } from './escapeCloses';
import { hasLogs, LogsTab } from './LogsTab';
import { ObjectEvents } from './ObjectEvents';
import { YamlView } from './YamlView';
import './detail.css';

/**
 * The right-hand pane: one object of any kind, refreshed every few seconds, as overview, related
 * objects, events, YAML, (pods, workloads) logs and the history Skiff recorded of it. Its owners
 * stand under its name on every tab. Related and History do not wait for the object: both answer
 * for an object that is gone.
 */
export function DetailPane({ scope, target }: { scope: Scope; target: ResourceRef }) {
  const tab = useRoute((s) => s.tab);
  const setTab = useRoute((s) => s.setTab);
  const select = useRoute((s) => s.select);
  const pending = useRoute((s) => s.pending);
  const served = useKindEntry(target.kind);
  const entry = served ?? unknownEntry(target.kind, target.namespace !== undefined);
  const key = `${scope.clusterId}/${target.kind}/${target.namespace ?? ''}/${target.name}`;
  const obj = usePolling(
    key,
    (signal) => getOne(api(), scope, target.kind, target.name, target.namespace, signal),
    { intervalMs: 5000 },
  );
  const relations = useRelations(scope, target);
  const resource = obj.data?.resource;
  const builtIn = isBuiltInType(target.kind) ? target.kind : null;
  const actions = useObjectActions(builtIn, resource);
  useEscapeCloses(useCallback(() => select(null), [select]));

  // An action asked for from elsewhere (an event's guidance) runs once this object is here.
  useEffect(() => {
    if (!pending || !resource) return;
    useRoute.getState().clearPending();
    actions.run(pending.action, pending.container);
  }, [pending, resource, actions]);

  const tabs: TabDef<DetailTab>[] = [
    { id: 'overview', label: 'Overview' },
    { id: 'related', label: 'Related' },
    { id: 'events', label: 'Events' },
    { id: 'yaml', label: 'YAML' },
    ...(builtIn && hasLogs(builtIn) ? [{ id: 'logs' as const, label: 'Logs' }] : []),
    { id: 'history', label: 'History' },
  ];
  const shown: DetailTab = tabs.some((t) => t.id === tab) ? tab : 'overview';
  const Details = detailsFor(entry);
  const what = `${entry.kind} ${target.name}`;

  return (
    <aside className="detail" aria-label={what} data-testid="detail-pane">
      <header className="detail-head">
        <div>
          <p className="detail-kind">
            {entry.kind}
            {target.namespace ? ` · ${target.namespace}` : ''}
          </p>
          <h2 className="detail-name">{target.name}</h2>
          <OwnersBreadcrumb relations={relations.data} self={target} />
        </div>
        <button type="button" className="icon" aria-label="Close details" onClick={() => select(null)}>
          ✕
        </button>
      </header>
      <Tabs tabs={tabs} selected={shown} onSelect={setTab} label="Details" idPrefix="detail" />
      <div
        className="detail-body"
        id="detail-panel"
        role="tabpanel"
        aria-labelledby={`detail-tab-${shown}`}
        data-tab={shown}
      >
        {obj.error && isNotFound(obj.error) ? (
          <div className="notice notice-warn" role="status" data-testid="object-missing">
            <p>
              <Badge tone="bad">missing</Badge> {what} does not exist
              {target.namespace ? ` in namespace ${target.namespace}` : ''}. Whatever names it (see Related)
              cannot use it until it is created.
              {isImpossibleName(obj.error) ? ` (${obj.error.message})` : null}
            </p>
            {/* A deleted pod's logs live on where Skiff kept them. */}
            {builtIn === 'pod' && target.namespace && (
              <KeptRuns scope={scope} namespace={target.namespace} pod={target.name} />
            )}
          </div>
        ) : (
          obj.error && <ProblemNotice error={obj.error} what={what} />
        )}
        {!resource && obj.loading && <Loading label={`Loading ${what}…`} />}
        {shown === 'related' && <RelatedTab relations={relations} />}
        {shown === 'history' && <HistoryTab key={key} scope={scope} target={target} kind={entry.kind} />}
        {resource && (
          <GuidanceActions.Provider value={actions}>
            {shown === 'overview' && <Details wrapper={obj.data!} scope={scope} entry={entry} />}
            {shown === 'events' && (
              <ObjectEvents
                scope={scope}
                kind={resource.kind ?? entry.kind}
                name={target.name}
                namespace={target.namespace}
              />
            )}
            {shown === 'yaml' && <YamlView obj={resource} />}
            {shown === 'logs' && builtIn && <LogsTab kind={builtIn} obj={resource} scope={scope} />}
          </GuidanceActions.Provider>
        )}
      </div>
    </aside>
  );
}

/**
 * A name its kind cannot have (400 invalid_name, e.g. a deep link to `pod/shop/No_Such`) names no
 * object, so the pane says it is missing, as the apiserver's 404 does for such a GET, with the reason.
 */
const isImpossibleName = (err: unknown): err is ApiError =>
  err instanceof ApiError && err.problem.status === 400 && err.problem.code === 'invalid_name';
const isNotFound = (err: unknown) =>
  (err instanceof ApiError && err.problem.status === 404) || isImpossibleName(err);
