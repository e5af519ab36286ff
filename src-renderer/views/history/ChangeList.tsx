import type { ChangeType, ObjectChange } from '../../../src-shared/contract/change-operations';
import type { HistoryPage } from '../../api/history';
import type { Polled } from '../../hooks/usePolling';
import { timestamp } from '../../kube/format';
import type { Tone } from '../../kube/meta';
import type { HistoryView } from '../../state/route';
import { Badge } from '../common/Badge';
import { Empty, Loading, ProblemNotice } from '../common/Problem';
import { justBefore, momentText } from './moment';

/**
 * The list of an object's recorded changes, newest first, a page at a time: when, what kind of
 * change, and its summary. Each version (the state a created or updated change left) can be picked
 * as the From and the To of a diff; each change can be shown as its own diff (What changed) and as
 * the object was then (As it was). A deletion left no version: it is shown, not picked, and "as it
 * was" shows the version it removed. An object already there when recording began ends the list
 * with the version first recorded, so its first change can be compared from it. Rules: presentational (the tab fetches); every control is
 * named for a screen reader by the moment it acts on.
 */

const TONE: Record<ChangeType, Tone> = { created: 'ok', updated: 'neutral', deleted: 'bad' };

export interface ChangeListProps {
  page: Polled<HistoryPage>;
  offset: number;
  pageSize: number;
  onOffset(offset: number): void;
  view: HistoryView | undefined;
  onView(view: HistoryView): void;
  /** The object's Kind, for the words of an empty history. */
  kind: string;
}

function Row({
  item,
  view,
  onView,
}: {
  item: ObjectChange;
  view: HistoryView | undefined;
  onView(view: HistoryView): void;
}) {
  const when = momentText(item.time);
  const isVersion = item.change !== 'deleted';
  const pickFrom = () => onView({ from: item.time, ...(view?.to ? { to: view.to } : {}) });
  const pickTo = () => onView({ ...(view?.from ? { from: view.from } : {}), to: item.time });
  const shown = view?.to === item.time || view?.at === item.time;
  return (
    <tr data-change={item.change} aria-current={shown ? 'true' : undefined}>
      <td>
        {isVersion && (
          <input
            type="radio"
            name="history-from"
            aria-label={`Compare from the version of ${when}`}
            checked={view?.from === item.time}
            onChange={pickFrom}
          />
        )}
      </td>
      <td>
        {isVersion && (
          <input
            type="radio"
            name="history-to"
            aria-label={`Compare to the version of ${when}`}
            checked={view?.to === item.time}
            onChange={pickTo}
          />
        )}
      </td>
      <td className="history-when">
        <time
          dateTime={item.time}
          title={`${timestamp(item.time)} · resourceVersion ${item.resourceVersion}`}
        >
          {when}
        </time>
      </td>
      <td>
        <Badge tone={TONE[item.change]}>{item.change}</Badge>
      </td>
      <td className="history-summary">{item.summary}</td>
      <td className="history-actions">
        {item.change === 'updated' && (
          <button
            type="button"
            aria-label={`What changed at ${when}`}
            onClick={() => onView({ to: item.time })}
          >
            Diff
          </button>
        )}
        <button
          type="button"
          aria-label={
            isVersion ? `Show as it was at ${when}` : `Show as it was before it was deleted at ${when}`
          }
          onClick={() => onView({ at: isVersion ? item.time : (justBefore(item.time) ?? item.time) })}
        >
          As it was
        </button>
      </td>
    </tr>
  );
}

/**
 * The version Skiff first recorded of an object that was already there when recording began: it
 * has no change of its own (no `created`), yet it is what the first change changed. Named by the
 * instant just before that change, it can be compared from and shown.
 */
function FirstVersionRow({
  at,
  view,
  onView,
}: {
  at: string;
  view: HistoryView | undefined;
  onView(view: HistoryView): void;
}) {
  return (
    <tr data-change="first-recorded" aria-current={view?.at === at ? 'true' : undefined}>
      <td>
        <input
          type="radio"
          name="history-from"
          aria-label="Compare from the version first recorded"
          checked={view?.from === at}
          onChange={() => onView({ from: at, ...(view?.to ? { to: view.to } : {}) })}
        />
      </td>
      <td />
      <td className="history-when">
        <span className="muted">before</span>
      </td>
      <td>
        <Badge tone="neutral">first recorded</Badge>
      </td>
      <td className="history-summary muted">The version Skiff first recorded, before these changes</td>
      <td className="history-actions">
        <button type="button" aria-label="Show as it was first recorded" onClick={() => onView({ at })}>
          As it was
        </button>
      </td>
    </tr>
  );
}

export function ChangeList({ page, offset, pageSize, onOffset, view, onView, kind }: ChangeListProps) {
  const data = page.data;
  if (!data) {
    if (page.error) return <ProblemNotice error={page.error} what="the history" />;
    return <Loading label="Loading the history…" />;
  }
  const first = data.items.length === 0 ? 0 : offset + 1;
  const last = offset + data.items.length;
  const oldest = data.items.at(-1);
  const firstVersionAt =
    oldest && last >= data.total && oldest.change !== 'created' ? justBefore(oldest.time) : undefined;
  return (
    <div className="history-list">
      {page.error && <ProblemNotice error={page.error} what="the history" />}
      {data.total === 0 ? (
        <Empty>
          Skiff has recorded no change of this {kind}. It records the objects of the kinds it watches from the
          moment it starts watching them; a change made from now on shows here.
        </Empty>
      ) : (
        <>
          <p className="muted history-count" aria-live="polite">
            {data.total === 1 ? '1 recorded change' : `${data.total} recorded changes`}
            {data.total > data.items.length ? `, ${first}–${last} shown` : ''}. Pick a From and a To version
            to compare them.
          </p>
          <table className="table history-table" aria-label="Recorded changes">
            <thead>
              <tr>
                <th scope="col">From</th>
                <th scope="col">To</th>
                <th scope="col">When</th>
                <th scope="col">Change</th>
                <th scope="col">Summary</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((item) => (
                <Row
                  key={`${item.time}/${item.resourceVersion}/${item.change}`}
                  item={item}
                  view={view}
                  onView={onView}
                />
              ))}
              {firstVersionAt && <FirstVersionRow at={firstVersionAt} view={view} onView={onView} />}
            </tbody>
          </table>
          {data.total > pageSize && (
            <nav className="history-pages" aria-label="History pages">
              <button
                type="button"
                disabled={offset === 0}
                onClick={() => onOffset(Math.max(0, offset - pageSize))}
              >
                Newer
              </button>
              <button type="button" disabled={last >= data.total} onClick={() => onOffset(offset + pageSize)}>
                Older
              </button>
            </nav>
          )}
        </>
      )}
    </div>
  );
}
