import { type RefObject, useEffect, useId, useMemo, useRef, useState } from 'react';
import { listAll, type Scope } from '../../api/queries';
import { useDebounced } from '../../hooks/useDebounced';
import { useLastValid } from '../../hooks/useLastValid';
import { usePolling } from '../../hooks/usePolling';
import { age } from '../../kube/format';
import type { KindEntry } from '../../kube/kind-catalog';
import { useCurrentCluster } from '../../state/clusters';
import { api } from '../../state/connection';
import { useKindEntry, useKinds } from '../../state/kinds';
import { useListSettings, useLists } from '../../state/lists';
import { useRoute } from '../../state/route';
import { Empty, Loading, ProblemNotice, problemText } from '../common/Problem';
import { StaleBanner } from '../common/StaleBanner';
import { sizeBadgeColumns } from './badgeWidth';
import { ageColumn, type KindColumn, nameColumn, namespaceColumn, type Row } from './columns';
import { fitColumns, NARROW_NAME_WIDTH } from './fitColumns';
import { kindView } from './registry';
import { checkSelector, SelectorBox } from './SelectorBox';
import { sortRows, VirtualTable } from './VirtualTable';

const rowKey = (r: Row) => `${r.resource.metadata.namespace ?? ''}/${r.resource.metadata.name}`;

/**
 * The room the list's table has, in rem (quarter steps), less its border and a scrollbar's width;
 * Infinity until measured. Follows the window and the detail pane's handle.
 */
function useRoomRem(ref: RefObject<HTMLElement | null>): number {
  const [room, setRoom] = useState(Number.POSITIVE_INFINITY);
  useEffect(() => {
    const el = ref.current;
    if (!el) return;
    const ro = new ResizeObserver(() => {
      const rem = Number.parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
      setRoom(Math.floor(((el.clientWidth - 2) / rem - 1) * 4) / 4);
    });
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return room;
}

/** "pod"/"pods", "certificate"/"certificates": how the counter and messages name a kind's objects. */
export function objectWords(entry: KindEntry): { singular: string; plural: string } {
  return { singular: entry.resourceType.split('.')[0] ?? entry.resourceType, plural: entry.plural };
}

/**
 * One kind's list, for any kind the cluster serves: until the served kinds are known it waits, and
 * a kind the cluster does not serve says so instead of asking for a list that cannot exist.
 */
export function ResourceList({
  scope,
  kind,
  namespace,
}: {
  scope: Scope;
  kind: string;
  namespace: string | null;
}) {
  const entry = useKindEntry(kind);
  const loaded = useKinds((s) => s.loaded);
  if (!entry) {
    return (
      <section className="list" aria-label={kind} data-testid="resource-list" data-kind={kind}>
        {loaded ? (
          <Empty>
            This cluster does not serve a kind named “{kind}”. Choose one from the tree or the palette
            (Ctrl+K).
          </Empty>
        ) : (
          <Loading label="Loading the kinds this cluster serves…" />
        )}
      </section>
    );
  }
  return <KindList scope={scope} entry={entry} namespace={namespace} />;
}

/** One kind's list: filters, a live virtualized table, and what is shown vs. what exists. */
function KindList({ scope, entry, namespace }: { scope: Scope; entry: KindEntry; namespace: string | null }) {
  const kind = entry.resourceType;
  const info = { namespaced: entry.namespaced, ...objectWords(entry) };
  const settings = useListSettings(kind);
  const update = useLists((s) => s.update);
  const selected = useRoute((s) => s.selected);
  const select = useRoute((s) => s.select);
  const filterId = useId();
  const listRef = useRef<HTMLElement>(null);
  const room = useRoomRem(listRef);

  const typed = settings.selectorText;
  const settled = useDebounced(typed, 300);
  // A half-typed selector (the box says what is wrong) keeps the list on the last valid one.
  const selector = useLastValid(settled, (s) => checkSelector(s).ok, '').trim();
  const ns = info.namespaced ? namespace : null;
  const key = `${scope.workspaceId}/${scope.clusterId}/${kind}/${ns ?? '*'}/${selector}`;
  const list = usePolling(key, (signal) => listAll(api(), scope, kind, ns, selector, signal), {
    intervalMs: 5000,
    keepPrevious: true,
  });

  const own = kindView(entry, list.data?.items).columns;
  const allColumns: KindColumn[] = useMemo(
    () => [nameColumn, ...(info.namespaced && !ns ? [namespaceColumn] : []), ...own, ageColumn],
    [own, info.namespaced, ns],
  );
  // A badge column is as wide as its widest badge, so no status is cut.
  const sized = useMemo(() => sizeBadgeColumns(allColumns, list.data?.items ?? []), [allColumns, list.data]);
  // Beside the detail pane, the columns that do not fit go (name and status stay), rather than
  // the table scrolling sideways with the status out of sight.
  const fitted = fitColumns(sized, room);
  const fittedKey = fitted.map((c) => `${c.id}:${c.width}`).join('|');
  // biome-ignore lint/correctness/useExhaustiveDependencies: one array per set of columns, so the table does not redo its rows on every pixel of a resize
  const columns: KindColumn[] = useMemo(
    () =>
      fitted.map((c) =>
        c.id === 'name' && c.width === NARROW_NAME_WIDTH
          ? { ...c, title: (r: Row) => r.resource.metadata.name }
          : c,
      ),
    [fittedKey, allColumns],
  );
  const filter = settings.nameFilter.trim().toLowerCase();
  const rows = useMemo(() => {
    const items = list.data?.items ?? [];
    const filtered = filter
      ? items.filter((r) => r.resource.metadata.name.toLowerCase().includes(filter))
      : items;
    return sortRows(
      filtered,
      // A column hidden for want of room still sorts.
      allColumns.find((c) => c.id === settings.sort.column) ?? nameColumn,
      settings.sort.direction,
    );
  }, [list.data, filter, allColumns, settings.sort]);

  const selectedKey =
    selected && selected.kind === kind ? `${selected.namespace ?? ''}/${selected.name}` : null;
  const label = `${entry.label.plural}${ns ? ` in ${ns}` : info.namespaced ? ' in all namespaces' : ''}`;
  // A snapshot never changes: "updated 0s ago" would claim a freshness it lacks; its age is the news.
  const current = useCurrentCluster();
  const takenAt = current?.status === 'snapshot' ? current.takenAt : undefined;

  return (
    <section
      ref={listRef}
      className="list"
      aria-label={label}
      data-testid="resource-list"
      data-kind={kind}
      data-selector-settled={settled}
    >
      <header className="list-head">
        <h2>{label}</h2>
        <p className="list-count" aria-live="polite">
          {list.data
            ? `${rows.length === list.data.items.length ? '' : `${rows.length} of `}${list.data.items.length} ${
                list.data.items.length === 1 ? info.singular : info.plural
              }${list.data.truncated ? ` (first ${list.data.items.length} of ${list.data.total})` : ''}`
            : ''}
        </p>
        <p
          className="list-updated muted"
          title={takenAt ?? (list.updatedAt ? new Date(list.updatedAt).toISOString() : '')}
        >
          {takenAt
            ? `snapshot taken ${age(takenAt)} ago`
            : list.updatedAt
              ? `updated ${age(new Date(list.updatedAt).toISOString())} ago`
              : ''}
          {list.fetching && <span className="dot-busy" aria-hidden="true" />}
        </p>
      </header>
      <StaleBanner staleSince={list.data?.staleSince} />
      <div className="list-tools">
        <div className="field">
          <label htmlFor={filterId}>Filter by name</label>
          <input
            id={filterId}
            type="search"
            value={settings.nameFilter}
            placeholder="part of a name"
            onChange={(e) => update(kind, { nameFilter: e.target.value })}
          />
        </div>
        <SelectorBox value={typed} onChange={(v) => update(kind, { selectorText: v })} />
      </div>
      {list.error && list.data && (
        <p className="stale" role="status">
          Showing the last answer; the latest refresh failed: {problemText(list.error)}
        </p>
      )}
      {list.error && !list.data && <ProblemNotice error={list.error} what={info.plural} />}
      {!list.data && !list.error && <Loading label={`Loading ${info.plural}…`} />}
      {list.data && list.data.items.length === 0 && (
        <Empty>
          No {info.plural}
          {selector ? ` match ${selector}` : ''}
          {ns ? ` in ${ns}` : ''}.
        </Empty>
      )}
      {list.data && list.data.items.length > 0 && (
        <VirtualTable
          label={label}
          idPrefix={`list-${kind}`}
          rows={rows}
          columns={columns}
          rowKey={rowKey}
          sort={settings.sort}
          onSort={(sort) => update(kind, { sort })}
          selectedKey={selectedKey}
          rowClass={kindView(entry).rowClass}
          onOpen={(r) =>
            select({
              kind,
              name: r.resource.metadata.name,
              ...(r.resource.metadata.namespace ? { namespace: r.resource.metadata.namespace } : {}),
            })
          }
        />
      )}
    </section>
  );
}
