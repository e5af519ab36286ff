import { useId } from 'react';
import { RESOURCE_KINDS, RESOURCE_TYPES } from '../../../src-shared/kube/kinds';
import { listAll, type Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { EMPTY_FILTERS, useEventsView } from '../../state/events';
import { useEventHistory } from './history-state';

/** Reasons people filter for most; the box takes any reason, these are suggestions. */
const COMMON_REASONS = [
  'FailedScheduling',
  'Failed',
  'ErrImagePull',
  'ImagePullBackOff',
  'BackOff',
  'CrashLoopBackOff',
  'OOMKilled',
  'Unhealthy',
  'FailedMount',
  'VolumeResizeFailed',
  'Killing',
  'Started',
  'Pulled',
  'Scheduled',
  'Created',
  'NodeNotReady',
  'Evicted',
];

export function EventFilterBar({ scope, namespaceError }: { scope: Scope; namespaceError: string | null }) {
  const f = useEventsView();
  const h = useEventHistory();
  const ids = {
    expired: useId(),
    grouped: useId(),
    warn: useId(),
    reason: useId(),
    ns: useId(),
    kind: useId(),
    name: useId(),
    nsErr: useId(),
  };
  const namespaces = usePolling(
    `${scope.workspaceId}/${scope.clusterId}/ns-names`,
    async (signal) =>
      (await listAll(api(), scope, 'namespace', null, '', signal)).items.map((w) => w.resource.metadata.name),
    { intervalMs: 30_000 },
  );
  return (
    <search className="list-tools event-filters" aria-label="Event filters">
      <div className="field field-toggle">
        <input
          id={ids.warn}
          type="checkbox"
          role="switch"
          aria-checked={f.warningsOnly}
          checked={f.warningsOnly}
          onChange={(e) => f.setFilters({ warningsOnly: e.target.checked })}
        />
        <label htmlFor={ids.warn}>Warnings only</label>
      </div>
      <div className="field">
        <label htmlFor={ids.reason}>Reason</label>
        <input
          id={ids.reason}
          list={`${ids.reason}-list`}
          value={f.reason}
          placeholder="any"
          onChange={(e) => f.setFilters({ reason: e.target.value })}
        />
        <datalist id={`${ids.reason}-list`}>
          {COMMON_REASONS.map((r) => (
            <option key={r} value={r} />
          ))}
        </datalist>
      </div>
      <div className="field">
        <label htmlFor={ids.ns}>Namespace</label>
        <input
          id={ids.ns}
          list={`${ids.ns}-list`}
          value={f.namespace}
          placeholder="all"
          aria-invalid={namespaceError !== null}
          aria-describedby={namespaceError ? ids.nsErr : undefined}
          onChange={(e) => f.setFilters({ namespace: e.target.value })}
        />
        <datalist id={`${ids.ns}-list`}>
          {(namespaces.data ?? []).map((n) => (
            <option key={n} value={n} />
          ))}
        </datalist>
        {namespaceError && (
          <p id={ids.nsErr} className="field-error">
            {namespaceError}
          </p>
        )}
      </div>
      <div className="field">
        <label htmlFor={ids.kind}>Object kind</label>
        <select id={ids.kind} value={f.kind} onChange={(e) => f.setFilters({ kind: e.target.value })}>
          <option value="">any</option>
          {RESOURCE_TYPES.map((t) => (
            <option key={t} value={RESOURCE_KINDS[t].kind}>
              {RESOURCE_KINDS[t].kind}
            </option>
          ))}
          <option value="ReplicaSet">ReplicaSet</option>
          <option value="PersistentVolumeClaim">PersistentVolumeClaim</option>
        </select>
      </div>
      <div className="field">
        <label htmlFor={ids.name}>Object name</label>
        <input
          id={ids.name}
          value={f.name}
          placeholder="exact name"
          onChange={(e) => f.setFilters({ name: e.target.value })}
        />
      </div>
      <div className="field field-toggle">
        <input
          id={ids.expired}
          type="checkbox"
          role="switch"
          aria-checked={h.showExpired}
          checked={h.showExpired}
          onChange={(e) => h.setShowExpired(e.target.checked)}
        />
        <label htmlFor={ids.expired} title="Add the events Skiff recorded that the cluster no longer has">
          Show expired
        </label>
      </div>
      {/* A button, not a labelled checkbox: its words contain "reason", which would make it a second
          control labelled "Reason" beside the reason box. */}
      <button
        type="button"
        role="switch"
        aria-checked={h.grouped}
        className="group-toggle"
        onClick={() => h.setGrouped(!h.grouped)}
      >
        <span className="group-toggle-mark" aria-hidden="true">
          {h.grouped ? '☑' : '☐'}
        </span>{' '}
        Group by object and reason
      </button>
      <button type="button" className="clear" onClick={() => f.setFilters(EMPTY_FILTERS)}>
        Clear filters
      </button>
    </search>
  );
}
