import { useState } from 'react';
import { objectHistory } from '../../api/history';
import type { Scope } from '../../api/queries';
import { usePolling } from '../../hooks/usePolling';
import { api } from '../../state/connection';
import { type HistoryView, type ResourceRef, useRoute } from '../../state/route';
import { ProblemNotice } from '../common/Problem';
import { Section } from '../common/Section';
import { YamlView } from '../resources/detail/YamlView';
import { ChangeList, firstRecordedAt } from './ChangeList';
import { justBefore, momentText } from './moment';
import { useVersion } from './useVersion';
import { VersionDiff } from './VersionDiff';
import './history.css';

/**
 * The detail pane's History tab (issue 27): what Skiff recorded of the object, for every kind,
 * also once the object is gone. Above the list of changes it shows what the route asks for
 * (route.ts HistoryView, so a link can open it): the diff of two versions (`from`, `to`), the diff
 * of one change (`to` alone: from the version just before it), or the object as it was (`at`).
 * Versions are fetched by instant through `?at=`, the service's own rebuild, not patched together
 * here. The list refreshes while the tab is open; a recorded version never changes.
 */

const PAGE = 50;
const REFRESH_MS = 10_000;

/**
 * The diff's title: its two moments (to the millisecond when they fall in one second), the version
 * first recorded by that name.
 */
function diffTitle(pair: { from: string | undefined; to: string }, firstAt: string | undefined): string {
  if (!pair.from) return `What changed at ${momentText(pair.to)}`;
  const precise = momentText(pair.from) === momentText(pair.to);
  const from =
    pair.from === firstAt ? 'the version first recorded' : momentText(pair.from, new Date(), precise);
  return `Changes from ${from} to ${momentText(pair.to, new Date(), precise)}`;
}

/** From and To in time order: a diff always reads from the older version to the newer one. */
function ordered(view: HistoryView): { from: string | undefined; to: string } | undefined {
  if (!view.to) return undefined;
  if (view.from && Date.parse(view.from) > Date.parse(view.to)) return { from: view.to, to: view.from };
  return { from: view.from, to: view.to };
}

export function HistoryTab({ scope, target, kind }: { scope: Scope; target: ResourceRef; kind: string }) {
  const view = useRoute((s) => s.history);
  const setHistory = useRoute((s) => s.setHistory);
  const [offset, setOffset] = useState(0);
  const key = `${scope.workspaceId}/${scope.clusterId}/history/${target.kind}/${target.namespace ?? ''}/${target.name}/${offset}`;
  const page = usePolling(
    key,
    (signal) => objectHistory(api(), scope, target, { limit: PAGE, offset }, signal),
    { intervalMs: REFRESH_MS, keepPrevious: true },
  );
  const pair = view ? ordered(view) : undefined;
  const fromAt = pair ? (pair.from ?? justBefore(pair.to)) : undefined;
  const before = useVersion(scope, target, fromAt);
  const after = useVersion(scope, target, pair?.to);
  const was = useVersion(scope, target, view?.at);
  const close = (keep: HistoryView) => setHistory(keep);

  return (
    <div className="history" data-testid="history">
      {pair && (
        <Section
          id="history-diff"
          title={diffTitle(pair, page.data ? firstRecordedAt(page.data, offset) : undefined)}
          actions={
            <button type="button" onClick={() => close(view?.at ? { at: view.at } : {})}>
              Close diff
            </button>
          }
        >
          <VersionDiff before={before} after={after} />
        </Section>
      )}
      {view?.at && (
        <Section
          id="history-at"
          title={
            page.data && view.at === firstRecordedAt(page.data, offset)
              ? 'As it was first recorded'
              : `As it was at ${momentText(view.at)}`
          }
          actions={
            <button
              type="button"
              onClick={() =>
                close({ ...(view.from ? { from: view.from } : {}), ...(view.to ? { to: view.to } : {}) })
              }
            >
              Close version
            </button>
          }
        >
          {was.data === undefined ? (
            was.error ? (
              <ProblemNotice error={was.error} what="that version" retrying={false}>
                <button type="button" onClick={was.reload}>
                  Try again
                </button>
              </ProblemNotice>
            ) : (
              <p className="muted">Loading that version…</p>
            )
          ) : was.data === null ? (
            <p className="empty">
              Skiff has no recorded version of this object at that moment: it was not recorded yet, or it had
              been deleted.
            </p>
          ) : (
            <div data-testid="history-as-it-was">
              <p className="muted">Read-only: the object as Skiff recorded it then.</p>
              <YamlView obj={was.data} />
            </div>
          )}
        </Section>
      )}
      <ChangeList
        page={page}
        offset={offset}
        pageSize={PAGE}
        onOffset={setOffset}
        view={view}
        onView={setHistory}
        kind={kind}
      />
    </div>
  );
}
