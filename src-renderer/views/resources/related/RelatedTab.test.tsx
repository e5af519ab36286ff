// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Relations } from '../../../../src-shared/contract/relations-operations';
import type { Polled } from '../../../hooks/usePolling';
import { BUILT_IN_ENTRIES, toEntry } from '../../../kube/kind-catalog';
import { useKinds } from '../../../state/kinds';
import { useRoute } from '../../../state/route';
import { OwnersBreadcrumb } from './OwnersBreadcrumb';
import { RelatedTab } from './RelatedTab';

/** The Related tab and the owners breadcrumb as a person reads them, from a relations answer. */

const POD = { resourceType: 'pod', namespace: 'shop', name: 'web-1' };
const RELATIONS: Relations = {
  object: POD,
  owners: [
    { resourceType: 'replicaset', namespace: 'shop', name: 'web-abc', status: '2/3' },
    { resourceType: 'deployment', namespace: 'shop', name: 'web', status: '2/3' },
  ],
  dependents: [],
  uses: [
    {
      resourceType: 'configmap',
      namespace: 'shop',
      name: 'app-config',
      missing: true,
      via: ['spec.volumes[config]'],
    },
    {
      resourceType: 'secret',
      namespace: 'shop',
      name: 'db',
      via: ['spec.containers[app].env[DB_PASSWORD]'],
      missingKeys: ['password'],
    },
    { resourceType: 'configmap', namespace: 'shop', name: 'extra', optional: true },
  ],
  usedBy: [],
  selects: [],
  selectedBy: [{ resourceType: 'service', namespace: 'shop', name: 'web' }],
  leftOff: { selectedBy: 4 },
  gaps: [{ resourceType: 'networkpolicy', detail: 'forbidden' }],
};

const polled = (data: Relations | undefined, error: Error | null = null): Polled<Relations> => ({
  data,
  error,
  loading: data === undefined && error === null,
  fetching: false,
  updatedAt: null,
  reload: () => {},
});

const REPLICASET = toEntry({
  resourceType: 'replicaset',
  plural: 'replicasets',
  kind: 'ReplicaSet',
  group: 'apps',
  version: 'v1',
  namespaced: true,
  shortNames: ['rs'],
  categories: [],
  verbs: ['list', 'watch'],
});

beforeEach(() => {
  useRoute.setState({ selected: null, area: 'resources' });
  useKinds.setState({ entries: [...BUILT_IN_ENTRIES, REPLICASET], loaded: true });
});
afterEach(cleanup);

describe('RelatedTab', () => {
  it('marks a missing object, names where it is used and the keys that are not there', () => {
    render(<RelatedTab relations={polled(RELATIONS)} />);
    const uses = screen.getByRole('region', { name: 'Uses' });
    const missing = uses.querySelector<HTMLElement>('[data-missing="true"]')!;
    expect(missing.textContent).toContain('app-config');
    expect(within(missing).getByText('missing').className).toContain('badge-bad');
    expect(missing.textContent).toContain('spec.volumes[config]');
    expect(uses.querySelectorAll('[data-missing="true"]')).toHaveLength(1);
    expect(uses.textContent).toContain('Keys it reads that are not there: “password”');
    expect(within(uses).getByText('(optional)')).toBeTruthy();
  });

  it('opens a related object with a click', () => {
    render(<RelatedTab relations={polled(RELATIONS)} />);
    fireEvent.click(screen.getByRole('button', { name: /app-config/ }));
    expect(useRoute.getState().selected).toEqual({
      kind: 'configmap',
      namespace: 'shop',
      name: 'app-config',
    });
  });

  it('says how many it left off and which kinds it could not read', () => {
    render(<RelatedTab relations={polled(RELATIONS)} />);
    expect(screen.getByRole('region', { name: 'Selected by' }).textContent).toContain('…and 4 more');
    expect(screen.getByText(/Not shown, as Skiff could not read them/).textContent).toContain(
      'networkpolicy (forbidden)',
    );
  });

  it('draws the dependents as a tree, with where it was cut', () => {
    const tree: Relations = {
      ...RELATIONS,
      owners: [],
      uses: [],
      selectedBy: [],
      dependents: [
        {
          resourceType: 'replicaset',
          namespace: 'shop',
          name: 'web-abc',
          children: [{ resourceType: 'pod', namespace: 'shop', name: 'web-abc-1', status: 'Running' }],
        },
        { resourceType: 'replicaset', namespace: 'shop', name: 'web-old', truncated: true },
      ],
    };
    render(<RelatedTab relations={polled(tree)} />);
    const dependents = screen.getByRole('region', { name: 'Dependents' });
    const top = dependents.querySelector(':scope > ul')!.children;
    expect(top).toHaveLength(2);
    expect(top[0]!.querySelector('ul')!.textContent).toContain('web-abc-1 · Running');
    expect(top[1]!.textContent).toContain('(more, not shown)');
  });

  it('says so when nothing relates, and shows the problem when the answer failed', () => {
    const none: Relations = { ...RELATIONS, owners: [], uses: [], selectedBy: [], gaps: [] };
    const { unmount } = render(<RelatedTab relations={polled(none)} />);
    expect(screen.getByText('Nothing else in the cluster relates to this object.')).toBeTruthy();
    unmount();
    render(<RelatedTab relations={polled(undefined, new Error('the cluster is unreachable'))} />);
    expect(screen.getByText(/the cluster is unreachable/)).toBeTruthy();
  });

  it('says how many related objects --authorize rbac left out, and never that nothing relates then', () => {
    const none: Relations = { ...RELATIONS, owners: [], uses: [], selectedBy: [], gaps: [] };
    const { unmount } = render(<RelatedTab relations={polled({ ...none, hidden: 3 })} />);
    expect(screen.getByTestId('related-hidden').textContent).toBe(
      '3 related objects are not shown: you do not have permission to read them.',
    );
    expect(screen.queryByText('Nothing else in the cluster relates to this object.')).toBeNull();
    unmount();
    render(<RelatedTab relations={polled({ ...RELATIONS, hidden: 1 })} />);
    expect(screen.getByTestId('related-hidden').textContent).toBe(
      '1 related object is not shown: you do not have permission to read it.',
    );
  });

  it('says nothing of hidden objects when none were left out', () => {
    render(<RelatedTab relations={polled(RELATIONS)} />);
    expect(screen.queryByTestId('related-hidden')).toBeNull();
  });
});

describe('OwnersBreadcrumb', () => {
  it('reads from the root down to the object itself, each kind by its Kind', () => {
    render(
      <OwnersBreadcrumb relations={RELATIONS} self={{ kind: 'pod', namespace: 'shop', name: 'web-1' }} />,
    );
    const items = within(screen.getByRole('navigation', { name: 'Owners' })).getAllByRole('listitem');
    expect(items.map((i) => i.textContent)).toEqual([
      'Deployment web · 2/3',
      'ReplicaSet web-abc · 2/3',
      'web-1',
    ]);
    expect(items[2]!.getAttribute('aria-current')).toBe('page');
  });

  it('names a kind the cluster does not serve by its resourceType', () => {
    useKinds.setState({ entries: BUILT_IN_ENTRIES });
    render(
      <OwnersBreadcrumb relations={RELATIONS} self={{ kind: 'pod', namespace: 'shop', name: 'web-1' }} />,
    );
    expect(screen.getByRole('navigation', { name: 'Owners' }).textContent).toContain('replicaset web-abc');
  });

  it('is absent for an object without owners', () => {
    const { container } = render(
      <OwnersBreadcrumb relations={{ ...RELATIONS, owners: [] }} self={{ kind: 'pod', name: 'x' }} />,
    );
    expect(container.textContent).toBe('');
  });
});
