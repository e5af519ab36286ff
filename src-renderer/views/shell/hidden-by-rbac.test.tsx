// @vitest-environment happy-dom
import { cleanup, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Cluster } from '../../../src-shared/contract/models';
import type { Problem } from '../../../src-shared/contract/problem';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { BUILT_IN_ENTRIES } from '../../kube/kind-catalog';
import { useClusters } from '../../state/clusters';
import { useKinds } from '../../state/kinds';
import { useRoute } from '../../state/route';
import { ResourceTree } from '../navigation/ResourceTree';
import { NamespaceSelect } from './NamespaceSelect';

/**
 * With `--authorize rbac` the service leaves out the namespaces and kinds a person may not read:
 * the namespace picker and the resource tree cope with what is left, down to nothing, and with a
 * chosen namespace that vanished, saying so in words instead of showing an empty control.
 * The service behind `window.skiff` answers the namespace list and the counts as a test sets them.
 */

let namespaces: IpcOutcome<unknown[]> = { ok: true, data: [] };

const forbidden = (resource: string): IpcOutcome<never> => ({
  ok: false,
  problem: {
    type: 'https://skiff.dev/problems/forbidden',
    title: 'Forbidden',
    status: 403,
    code: 'forbidden',
    detail: `${resource} is forbidden`,
    permission: { verb: 'list', group: '', resource },
  } as Problem,
});

const wrapped = (name: string) => ({
  resource: { apiVersion: 'v1', kind: 'Namespace', metadata: { name, uid: name } },
});

beforeEach(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async () =>
      name === 'listResources'
        ? namespaces
        : name === 'listCounts'
          ? { ok: true, data: [], page: { total: 0, limit: 500, offset: 0 } }
          : forbidden(name),
  });
});
afterEach(cleanup);

let n = 0;
/** A cluster of its own per test: the polls and list caches are keyed by it. */
function cluster(): Cluster {
  const c: Cluster = {
    clusterId: `c${++n}`,
    workspaceId: 'default',
    name: `cluster ${n}`,
    context: 'ctx',
    server: 'https://example:6443',
    status: 'connected',
    monitoring: { clusterAgent: { monitoring: { resourceEventsEnabled: true, systemEventsEnabled: true } } },
  };
  useClusters.setState({
    workspaces: [{ workspaceId: 'default', name: 'Default', groups: [] }],
    clusters: [c],
    loaded: true,
    error: null,
  });
  useRoute.setState({ workspaceId: 'default', clusterId: c.clusterId, namespace: null });
  return c;
}

const page = (names: string[]): IpcOutcome<unknown[]> => ({
  ok: true,
  data: names.map(wrapped),
  page: { total: names.length, limit: 500, offset: 0 },
});

describe('the namespace picker', () => {
  it('offers only the namespaces the service answered', async () => {
    namespaces = page(['shop']);
    cluster();
    render(<NamespaceSelect />);
    await waitFor(() => expect(screen.getByRole('option', { name: 'shop' })).toBeTruthy());
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['All namespaces', 'shop']);
    expect(screen.queryByRole('status')).toBeNull();
  });

  it('says when there is no namespace to see', async () => {
    namespaces = page([]);
    cluster();
    render(<NamespaceSelect />);
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('No namespace you may see'));
  });

  it('says when namespaces may not be listed at all', async () => {
    namespaces = forbidden('namespaces');
    cluster();
    render(<NamespaceSelect />);
    await waitFor(() =>
      expect(screen.getByRole('status').textContent).toBe('You may not list namespaces here'),
    );
  });

  it('keeps a chosen namespace that vanished, saying it may be for want of permission', async () => {
    namespaces = page(['shop']);
    cluster();
    useRoute.setState({ namespace: 'kube-system' });
    render(<NamespaceSelect />);
    await waitFor(() =>
      expect(screen.getByRole('option', { name: 'kube-system (not found or not permitted)' })).toBeTruthy(),
    );
    expect((screen.getByLabelText('Namespace') as HTMLSelectElement).value).toBe('kube-system');
  });
});

describe('the resource tree', () => {
  it('says so when no kind may be listed, instead of an empty tree', () => {
    const c = cluster();
    useKinds.setState({ key: `default/${c.clusterId}`, entries: [], loaded: true });
    render(<ResourceTree cluster={c} />);
    expect(screen.getByTestId('tree-no-kinds').textContent).toContain(
      `You may not list any kind of resource in ${c.name}.`,
    );
    expect(screen.queryByRole('tree')).toBeNull();
  });

  it('shows the kinds it has, and waits for the first answer before saying there are none', () => {
    const c = cluster();
    useKinds.setState({ key: null, entries: [], loaded: false });
    render(<ResourceTree cluster={c} />);
    expect(screen.queryByTestId('tree-no-kinds')).toBeNull();
    cleanup();
    useKinds.setState({ key: `default/${c.clusterId}`, entries: BUILT_IN_ENTRIES.slice(0, 1), loaded: true });
    render(<ResourceTree cluster={c} />);
    expect(screen.getByRole('tree')).toBeTruthy();
    expect(screen.queryByTestId('tree-no-kinds')).toBeNull();
  });
});
