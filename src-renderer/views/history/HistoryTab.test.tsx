// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ObjectChange } from '../../../src-shared/contract/change-operations';
import type { KubeObject } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { type ResourceRef, useRoute } from '../../state/route';
import { DetailPane } from '../resources/detail/DetailPane';
import { HistoryTab } from './HistoryTab';
import { momentText } from './moment';

/**
 * The History tab as a person uses it, against a small in-memory history service behind
 * `window.skiff` (the seam the renderer's connection reads): the tab runs its real queries, hooks
 * and transport. The service answers pages newest first and `?at=` as the recorder's rebuild does:
 * the last version at or before the instant, none before the first or after a deletion.
 */

const scope = { workspaceId: 'ws-test', clusterId: 'cl-test' };
const CHECKOUT: ResourceRef = { kind: 'deployment', namespace: 'shop', name: 'checkout' };

const T = (hhmmss: string) => `2026-11-28T${hhmmss}.000Z`;

function deployment(image: string, replicas: number, rv: string): KubeObject {
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: 'checkout', namespace: 'shop', uid: 'u-1', resourceVersion: rv },
    spec: {
      replicas,
      template: { spec: { containers: [{ name: 'app', image: `shop/checkout:${image}` }] } },
    },
  } as KubeObject;
}

interface Version {
  change: ObjectChange['change'];
  time: string;
  rv: string;
  summary: string;
  object: KubeObject | null;
  /** false: a version the recorder keeps but lists no change for (an object's first sight). */
  listed?: false;
}

/** Oldest first, as recorded. */
const CHECKOUT_VERSIONS: Version[] = [
  {
    change: 'created',
    time: T('02:00:00'),
    rv: '10',
    summary: 'created',
    object: deployment('1.4.0', 2, '10'),
  },
  {
    change: 'updated',
    time: T('02:05:00'),
    rv: '20',
    summary: 'image app: 1.4.0 → 1.4.1',
    object: deployment('1.4.1', 2, '20'),
  },
  {
    change: 'updated',
    time: T('02:07:00'),
    rv: '30',
    summary: 'replicas 2 → 5',
    object: deployment('1.4.1', 5, '30'),
  },
  { change: 'deleted', time: T('02:09:00'), rv: '40', summary: 'deleted', object: null },
];

let histories: Record<string, Version[]> = {};
let failHistory: Problem | null = null;
/** How many of the next `?at=` reads fail, as a cluster that stops answering for a moment. */
let failAt = 0;
const calls: Array<{ name: string; query: Record<string, string> }> = [];

const problem = (status: number, code: Problem['code'], detail: string): IpcOutcome<never> => ({
  ok: false,
  problem: { type: 'about:blank', title: detail, status, code, detail },
});

type Input = { params?: Record<string, string>; query?: Record<string, string> };
const keyOf = (p: Record<string, string> = {}) => `${p.resourceType}/${p.namespace ?? ''}/${p.resourceName}`;

function historyPage({ params, query = {} }: Input): IpcOutcome<ObjectChange[]> {
  if (failHistory) return { ok: false, problem: failHistory };
  const newestFirst = (histories[keyOf(params)] ?? []).filter((v) => v.listed !== false).reverse();
  const limit = Number(query.limit ?? 50);
  const offset = Number(query.offset ?? 0);
  return {
    ok: true,
    data: newestFirst.slice(offset, offset + limit).map((v) => ({
      time: v.time,
      change: v.change,
      resourceVersion: v.rv,
      patch: [],
      summary: v.summary,
    })),
    page: { total: newestFirst.length, limit, offset },
  };
}

function objectAt({ params, query = {} }: Input): IpcOutcome<KubeObject> {
  if (failAt > 0) {
    failAt--;
    return problem(503, 'cluster_unreachable', 'the database did not answer');
  }
  const at = Date.parse(query.at ?? '');
  const last = (histories[keyOf(params)] ?? []).filter((v) => Date.parse(v.time) <= at).at(-1);
  if (!last?.object)
    return problem(404, 'resource_not_found', `${params?.resourceType} was not recorded then`);
  return { ok: true, data: last.object };
}

beforeAll(() => {
  const handlers: Record<string, (input: Input) => IpcOutcome<unknown>> = {
    objectHistory: historyPage,
    namespacedObjectHistory: historyPage,
    objectAt,
    namespacedObjectAt: objectAt,
    getNamespacedResource: ({ params }) =>
      problem(404, 'resource_not_found', `deployments "${params?.resourceName}" not found`),
    getNamespacedRelations: ({ params }) => ({
      ok: true,
      data: {
        object: { resourceType: 'deployment', namespace: 'shop', name: params?.resourceName ?? '' },
        owners: [],
        dependents: [],
        uses: [],
        usedBy: [],
        selects: [],
        selectedBy: [],
      },
    }),
  };
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async (input: Input) => {
      calls.push({ name, query: input.query ?? {} });
      return (
        handlers[name]?.(input) ?? problem(404, 'route_not_found', `the fake service does not answer ${name}`)
      );
    },
  });
});

beforeEach(() => {
  histories = { 'deployment/shop/checkout': CHECKOUT_VERSIONS };
  failHistory = null;
  failAt = 0;
  calls.length = 0;
  useRoute.setState({
    area: 'resources',
    selected: CHECKOUT,
    tab: 'history',
    history: undefined,
    focus: null,
  });
});
afterEach(cleanup);

const tab = () => render(<HistoryTab scope={scope} target={CHECKOUT} kind="Deployment" />);
const rows = async () => {
  const table = await screen.findByRole('table', { name: 'Recorded changes' });
  return within(table).getAllByRole('row').slice(1);
};
const diffEntries = async () => {
  const diff = await screen.findByTestId('history-diff');
  return Array.from(diff.querySelectorAll('.diff-entry')).map((li) => ({
    path: li.querySelector('.diff-path')?.textContent,
    was: li.querySelector('del')?.textContent,
    now: li.querySelector('ins')?.textContent,
  }));
};

describe('HistoryTab: the list', () => {
  it('lists the changes newest first: when, what kind of change, and its summary', async () => {
    tab();
    const r = await rows();
    expect(
      r.map((row) => [
        row.querySelector('time')?.textContent,
        row.querySelector('.badge')?.textContent,
        row.querySelector('.history-summary')?.textContent,
      ]),
    ).toEqual([
      [momentText(T('02:09:00')), 'deleted', 'deleted'],
      [momentText(T('02:07:00')), 'updated', 'replicas 2 → 5'],
      [momentText(T('02:05:00')), 'updated', 'image app: 1.4.0 → 1.4.1'],
      [momentText(T('02:00:00')), 'created', 'created'],
    ]);
    expect(screen.getByText(/^4 recorded changes\./)).toBeTruthy();
    expect(r[0]!.querySelector('time')!.getAttribute('datetime')).toBe(T('02:09:00'));
    // A deletion left no version to compare; an update can be shown as its own diff, a creation cannot.
    expect(within(r[0]!).queryAllByRole('radio')).toHaveLength(0);
    expect(within(r[1]!).getAllByRole('radio')).toHaveLength(2);
    expect(within(r[1]!).queryByRole('button', { name: /What changed/ })).toBeTruthy();
    expect(within(r[3]!).queryByRole('button', { name: /What changed/ })).toBeNull();
  });

  it('says when nothing was recorded, and shows the problem when the history cannot be read', async () => {
    histories = {};
    const { unmount } = tab();
    expect(await screen.findByText(/Skiff has recorded no change of this Deployment/)).toBeTruthy();
    unmount();
    failHistory = {
      type: 'about:blank',
      title: 'Forbidden',
      status: 503,
      code: 'cluster_unreachable',
      detail: 'the cluster did not answer',
    };
    tab();
    expect(await screen.findByText('the cluster did not answer')).toBeTruthy();
  });

  it('pages a long history, 50 at a time, with Older and Newer', async () => {
    histories = {
      'deployment/shop/checkout': Array.from({ length: 51 }, (_, i) => ({
        change: 'updated' as const,
        time: new Date(Date.parse(T('01:00:00')) + i * 1000).toISOString(),
        rv: String(100 + i),
        summary: `replicas ${i} → ${i + 1}`,
        object: deployment('1', i + 1, String(100 + i)),
      })),
    };
    tab();
    expect(await rows()).toHaveLength(50);
    expect(screen.getByText(/51 recorded changes, 1–50 shown/)).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'History pages' });
    expect(within(nav).getByRole('button', { name: 'Newer' })).toHaveProperty('disabled', true);
    fireEvent.click(within(nav).getByRole('button', { name: 'Older' }));
    expect(await screen.findByText(/51 recorded changes, 51–51 shown/)).toBeTruthy();
    // The last page ends with the version first recorded, since the oldest change is no creation.
    expect((await rows()).map((r) => r.getAttribute('data-change'))).toEqual(['updated', 'first-recorded']);
    expect((await rows())[0]!.textContent).toContain('replicas 0 → 1');
    expect(calls.filter((c) => c.name === 'namespacedObjectHistory').at(-1)?.query).toEqual({
      limit: '50',
      offset: '50',
    });
    expect(within(nav).getByRole('button', { name: 'Older' })).toHaveProperty('disabled', true);
    fireEvent.click(within(nav).getByRole('button', { name: 'Newer' }));
    expect(await screen.findByText(/51 recorded changes, 1–50 shown/)).toBeTruthy();
  });
});

describe('HistoryTab: changes within one second', () => {
  it('read to the millisecond, in the list and in the diff', async () => {
    const at = (ms: string) => `2026-11-28T02:05:00.${ms}Z`;
    histories = {
      'deployment/shop/checkout': [
        { ...CHECKOUT_VERSIONS[0]!, time: at('100') },
        { ...CHECKOUT_VERSIONS[1]!, time: at('250') },
        { ...CHECKOUT_VERSIONS[2]!, time: T('02:07:00') },
      ],
    };
    tab();
    const r = await rows();
    const precise = (iso: string) => momentText(iso, new Date(), true);
    expect(r.map((row) => row.querySelector('time')?.textContent)).toEqual([
      momentText(T('02:07:00')),
      precise(at('250')),
      precise(at('100')),
    ]);
    expect(precise(at('250'))).toMatch(/:00\.250$/);
    fireEvent.click(
      within(r[2]!).getByRole('radio', { name: `Compare from the version of ${precise(at('100'))}` }),
    );
    fireEvent.click(within((await rows())[1]!).getByRole('radio', { name: /^Compare to/ }));
    expect(
      await screen.findByRole('region', {
        name: `Changes from ${precise(at('100'))} to ${precise(at('250'))}`,
      }),
    ).toBeTruthy();
  });
});

describe('HistoryTab: diffs', () => {
  it('shows what one change changed, from the version just before it, and the route says so', async () => {
    tab();
    const r = await rows();
    fireEvent.click(
      within(r[2]!).getByRole('button', { name: `What changed at ${momentText(T('02:05:00'))}` }),
    );
    expect(useRoute.getState().history).toEqual({ to: T('02:05:00') });
    expect(await diffEntries()).toEqual([
      {
        path: 'spec.template.spec.containers[app].image',
        was: 'was shop/checkout:1.4.0',
        now: 'now shop/checkout:1.4.1',
      },
    ]);
    expect(screen.getByRole('region', { name: `What changed at ${momentText(T('02:05:00'))}` })).toBeTruthy();
    // The version before is asked for 1 ms before the change, the version after at the change.
    const asked = calls.filter((c) => c.name === 'namespacedObjectAt').map((c) => c.query.at);
    expect(asked.sort()).toEqual(['2026-11-28T02:04:59.999Z', T('02:05:00')]);
  });

  it('compares any two versions picked as From and To, older to newer whichever was picked first', async () => {
    tab();
    let r = await rows();
    fireEvent.click(
      within(r[1]!).getByRole('radio', { name: `Compare from the version of ${momentText(T('02:07:00'))}` }),
    );
    expect(screen.queryByTestId('history-diff')).toBeNull();
    r = await rows();
    fireEvent.click(
      within(r[3]!).getByRole('radio', { name: `Compare to the version of ${momentText(T('02:00:00'))}` }),
    );
    expect(useRoute.getState().history).toEqual({ from: T('02:07:00'), to: T('02:00:00') });
    expect(
      await screen.findByRole('region', {
        name: `Changes from ${momentText(T('02:00:00'))} to ${momentText(T('02:07:00'))}`,
      }),
    ).toBeTruthy();
    expect(await diffEntries()).toEqual([
      { path: 'spec.replicas', was: 'was 2', now: 'now 5' },
      {
        path: 'spec.template.spec.containers[app].image',
        was: 'was shop/checkout:1.4.0',
        now: 'now shop/checkout:1.4.1',
      },
    ]);
    r = await rows();
    expect(within(r[1]!).getByRole('radio', { name: /Compare from/ })).toHaveProperty('checked', true);
    expect(within(r[3]!).getByRole('radio', { name: /Compare to/ })).toHaveProperty('checked', true);
    fireEvent.click(screen.getByRole('button', { name: 'Close diff' }));
    expect(useRoute.getState().history).toBeUndefined();
    expect(screen.queryByTestId('history-diff')).toBeNull();
  });

  it('compares from the version first recorded of an object that was there before recording began', async () => {
    // The first version has no change of its own: it is rebuilt, never listed.
    const seen: Version = { ...CHECKOUT_VERSIONS[0]!, time: T('01:00:00'), listed: false };
    histories = { 'deployment/shop/checkout': [seen, ...CHECKOUT_VERSIONS.slice(1, 3)] };
    tab();
    let r = await rows();
    expect(r.map((row) => row.getAttribute('data-change'))).toEqual(['updated', 'updated', 'first-recorded']);
    expect(r[2]!.textContent).toContain('The version Skiff first recorded, before these changes');
    expect(within(r[2]!).queryByRole('radio', { name: /Compare to/ })).toBeNull();
    fireEvent.click(within(r[2]!).getByRole('radio', { name: 'Compare from the version first recorded' }));
    r = await rows();
    fireEvent.click(
      within(r[0]!).getByRole('radio', { name: `Compare to the version of ${momentText(T('02:07:00'))}` }),
    );
    expect(useRoute.getState().history).toEqual({ from: '2026-11-28T02:04:59.999Z', to: T('02:07:00') });
    expect(
      screen.getByRole('region', {
        name: `Changes from the version first recorded to ${momentText(T('02:07:00'))}`,
      }),
    ).toBeTruthy();
    expect((await diffEntries()).map((e) => e.path)).toEqual([
      'spec.replicas',
      'spec.template.spec.containers[app].image',
    ]);
    fireEvent.click(
      within((await rows())[2]!).getByRole('button', { name: 'Show as it was first recorded' }),
    );
    expect(useRoute.getState().history).toEqual({ at: '2026-11-28T02:04:59.999Z' });
    expect((await screen.findByTestId('history-as-it-was')).textContent).toContain('shop/checkout:1.4.0');
    expect(screen.getByRole('region', { name: 'As it was first recorded' })).toBeTruthy();
  });

  it('opens at the diff a link names, and reads a creation as every field new', async () => {
    useRoute.getState().openHistory(CHECKOUT, { to: T('02:00:00') });
    tab();
    await screen.findByTestId('history-diff');
    expect(screen.getByText('No earlier version was recorded, so every field is new.')).toBeTruthy();
    expect((await diffEntries()).map((e) => e.path)).toEqual(['apiVersion', 'kind', 'metadata', 'spec']);
  });

  it('says when two versions do not differ, and when Skiff had no version at either moment', async () => {
    useRoute.getState().openHistory(CHECKOUT, { from: T('02:05:00'), to: T('02:06:00') });
    const { unmount } = tab();
    expect(
      await screen.findByText('The two versions are the same (apart from their resourceVersion).'),
    ).toBeTruthy();
    unmount();
    useRoute.getState().openHistory(CHECKOUT, { from: T('01:00:00'), to: T('03:00:00') });
    tab();
    expect(
      await screen.findByText('Skiff has no recorded version of this object at either moment.'),
    ).toBeTruthy();
  });
});

describe('HistoryTab: a version that could not be read', () => {
  it('says so, and reads it again on Try again, for a diff and for a version as it was', async () => {
    failAt = 1;
    useRoute.getState().openHistory(CHECKOUT, { to: T('02:05:00') });
    const { unmount } = tab();
    expect(await screen.findByText('the database did not answer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await diffEntries()).map((e) => e.path)).toEqual(['spec.template.spec.containers[app].image']);
    unmount();
    failAt = 1;
    useRoute.getState().openHistory(CHECKOUT, { at: T('02:05:00') });
    tab();
    expect(await screen.findByText('the database did not answer')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect((await screen.findByTestId('history-as-it-was')).textContent).toContain('shop/checkout:1.4.1');
  });
});

describe('HistoryTab: as it was', () => {
  it('shows the object as it was at a change, read-only, as YAML', async () => {
    tab();
    const r = await rows();
    fireEvent.click(
      within(r[1]!).getByRole('button', { name: `Show as it was at ${momentText(T('02:07:00'))}` }),
    );
    expect(useRoute.getState().history).toEqual({ at: T('02:07:00') });
    const was = await screen.findByTestId('history-as-it-was');
    expect(was.textContent).toContain('replicas: 5');
    expect(was.textContent).toContain('image: shop/checkout:1.4.1');
    expect(screen.getByRole('region', { name: `As it was at ${momentText(T('02:07:00'))}` })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Close version' }));
    expect(screen.queryByTestId('history-as-it-was')).toBeNull();
  });

  it('shows a deleted object as it was just before it was deleted', async () => {
    tab();
    const r = await rows();
    fireEvent.click(
      within(r[0]!).getByRole('button', {
        name: `Show as it was before it was deleted at ${momentText(T('02:09:00'))}`,
      }),
    );
    expect(useRoute.getState().history).toEqual({ at: '2026-11-28T02:08:59.999Z' });
    expect((await screen.findByTestId('history-as-it-was')).textContent).toContain('replicas: 5');
  });

  it('says so when Skiff had no version then', async () => {
    useRoute.getState().openHistory(CHECKOUT, { at: T('01:00:00') });
    tab();
    expect(
      await screen.findByText(/Skiff has no recorded version of this object at that moment/),
    ).toBeTruthy();
  });
});

describe('the detail pane', () => {
  it('has a History tab that answers for an object that is gone', async () => {
    useRoute.getState().select(CHECKOUT);
    render(<DetailPane scope={scope} target={CHECKOUT} />);
    const tabs = screen.getByRole('tablist', { name: 'Details' });
    expect(
      within(tabs)
        .getAllByRole('tab')
        .map((t) => t.textContent),
    ).toEqual(['Overview', 'Related', 'Events', 'YAML', 'Logs', 'History']);
    act(() => fireEvent.click(within(tabs).getByRole('tab', { name: 'History' })));
    expect(await screen.findByTestId('object-missing')).toBeTruthy();
    expect((await rows()).length).toBe(4);
    expect(useRoute.getState().tab).toBe('history');
  });
});
