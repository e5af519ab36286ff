import { useEffect } from 'react';
import { RESOURCE_KINDS } from '../../../../src-shared/kube/kinds';
import type { Scope } from '../../../api/queries';
import { getOne } from '../../../api/queries';
import { usePolling } from '../../../hooks/usePolling';
import { api } from '../../../state/connection';
import { type DetailTab, type ResourceRef, useRoute } from '../../../state/route';
import { Loading, ProblemNotice } from '../../common/Problem';
import { type TabDef, Tabs } from '../../common/Tabs';
import { GuidanceActions } from '../../guidance/actions';
import { useObjectActions } from '../../guidance/useObjectActions';
import { detailsFor } from '../registry';
import { hasLogs, LogsTab } from './LogsTab';
import { ObjectEvents } from './ObjectEvents';
import { YamlView } from './YamlView';
import './detail.css';

/** The right-hand pane: one object, refreshed every few seconds, as overview, events, YAML and (pods, workloads) logs. */
export function DetailPane({ scope, target }: { scope: Scope; target: ResourceRef }) {
  const tab = useRoute((s) => s.tab);
  const setTab = useRoute((s) => s.setTab);
  const select = useRoute((s) => s.select);
  const pending = useRoute((s) => s.pending);
  const info = RESOURCE_KINDS[target.kind];
  const key = `${scope.clusterId}/${target.kind}/${target.namespace ?? ''}/${target.name}`;
  const obj = usePolling(
    key,
    (signal) => getOne(api(), scope, target.kind, target.name, target.namespace, signal),
    { intervalMs: 5000 },
  );
  const resource = obj.data?.resource;
  const actions = useObjectActions(target.kind, resource);

  // An action asked for from elsewhere (an event's guidance) runs once this object is here.
  useEffect(() => {
    if (!pending || !resource) return;
    useRoute.getState().clearPending();
    actions.run(pending.action, pending.container);
  }, [pending, resource, actions]);

  const tabs: TabDef<DetailTab>[] = [
    { id: 'overview', label: 'Overview' },
    { id: 'events', label: 'Events' },
    { id: 'yaml', label: 'YAML' },
    ...(hasLogs(target.kind) ? [{ id: 'logs' as const, label: 'Logs' }] : []),
  ];
  const shown: DetailTab = tabs.some((t) => t.id === tab) ? tab : 'overview';
  const Details = detailsFor(target.kind);

  return (
    <aside className="detail" aria-label={`${info.kind} ${target.name}`} data-testid="detail-pane">
      <header className="detail-head">
        <div>
          <p className="detail-kind">
            {info.kind}
            {target.namespace ? ` · ${target.namespace}` : ''}
          </p>
          <h2 className="detail-name">{target.name}</h2>
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
        {obj.error && <ProblemNotice error={obj.error} what={`${info.kind} ${target.name}`} />}
        {!resource && obj.loading && <Loading label={`Loading ${info.kind} ${target.name}…`} />}
        {resource && (
          <GuidanceActions.Provider value={actions}>
            {shown === 'overview' && <Details wrapper={obj.data!} scope={scope} />}
            {shown === 'events' && (
              <ObjectEvents
                scope={scope}
                kind={target.kind}
                name={target.name}
                namespace={target.namespace}
              />
            )}
            {shown === 'yaml' && <YamlView obj={resource} />}
            {shown === 'logs' && <LogsTab kind={target.kind} obj={resource} scope={scope} />}
          </GuidanceActions.Provider>
        )}
      </div>
    </aside>
  );
}
