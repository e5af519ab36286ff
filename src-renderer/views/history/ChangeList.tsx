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
 * as the From and the To of a diff; each change can be shown as its own diff (Diff) and as the
 * object was then (As it was). A deletion left no version: it is shown, not picked, and "as it was"
 * shows the version it removed. An object already there when recording began ends the list with
 * the version first recorded, so its first change can be compared from it. Rules: presentational
 * (the tab fetches); four columns, so the list fits the detail pane at its narrowest; every control
 * is named for a screen reader by the moment it acts on; changes within one second read to the
 * millisecond.
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

/**
 * The instant that names the version first recorded (just before the oldest change), when the
 * page is the last one and its oldest change is no creation; else undefined.
 */
export function firstRecordedAt(data: HistoryPage, offset: number): string | undefined {
  const oldest = data.items.at(-1);
  const last = offset + data.items.length >= data.total;
  return oldest && last && oldest.change !== 'created' ? justBefore(oldest.time) : undefined;
}

/** Each change's moment as the list shows it: to the millisecond where two would read the same. */
function momentsOf(items: readonly ObjectChange[]): string[] {
  const coarse = items.map((i) => momentText(i.time));
  const seen = new Map<string, number>();
  for (const c of coarse) seen.set(c, (seen.get(c) ?? 0) + 1);
  return items.map((i, n) =>
    (seen.get(coarse[n]!) ?? 0) > 1 ? momentText(i.time, new Date(), true) : coarse[n]!,
  );
}

function Row({
  item,
  when,
  view,
  onView,
}: {
  item: ObjectChange;
  when: string;
  view: HistoryView | undefined;
  onView(view: HistoryView): void;
}) {
  const isVersion = item.change !== 'deleted';
  const pickFrom = () => onView({ from: item.time, ...(view?.to ? { to: view.to } : {}) });
  const pickTo = () => onView({ ...(view?.from ? { from: view.from } : {}), to: item.time });
  const shown = view?.to === item.time || view?.at === item.time;
  return (
    <tr data-change={item.change} aria-current={shown ? 'true' : undefined}>
      <td className="history-pick">
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
      <td className="history-pick">
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
      <td className="history-change">
        <div className="history-change-head">
          <time
            dateTime={item.time}
            title={`${timestamp(item.time)} · resourceVersion ${item.resourceVersion}`}
          >
            {when}
          </time>{' '}
          <Badge tone={TONE[item.change]}>{item.change}</Badge>
        </div>
        <div className="history-summary">{item.summary}</div>
      </td>
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
      <td className="history-pick">
        <input
          type="radio"
          name="history-from"
          aria-label="Compare from the version first recorded"
          checked={view?.from === at}
          onChange={() => onView({ from: at, ...(view?.to ? { to: view.to } : {}) })}
        />
      </td>
      <td className="history-pick" />
      <td className="history-change">
        <div className="history-change-head">
          <Badge tone="neutral">first recorded</Badge>
        </div>
        <div className="history-summary muted">The version Skiff first recorded, before these changes</div>
      </td>
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
  const firstVersionAt = firstRecordedAt(data, offset);
  const moments = momentsOf(data.items);
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
                <th scope="col">Change</th>
                <th scope="col">
                  <span className="sr-only">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {data.items.map((item, i) => (
                <Row
                  key={`${item.time}/${item.resourceVersion}/${item.change}`}
                  item={item}
                  when={moments[i]!}
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
