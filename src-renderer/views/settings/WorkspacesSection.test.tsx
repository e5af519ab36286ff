// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { Workspace } from '../../../src-shared/contract/models';
import type { IpcOutcome } from '../../../src-shared/ipc/channels';
import { useClusters } from '../../state/clusters';
import { notServed } from '../../state/clusters.test-support';
import { WorkspacesSection } from './WorkspacesSection';

/**
 * Settings → Workspaces against a fake service behind window.skiff: the member groups come from
 * the workspace list (no write is sent to read them); an administrator may change them, anyone else
 * is shown them read-only and nothing is saved.
 */

const WORKSPACES: Workspace[] = [
  { workspaceId: 'default', name: 'Default', groups: [] },
  { workspaceId: 'shop', name: 'Shop', groups: ['shop-devs', 'ops'] },
];

const service = {
  role: 'admin' as 'admin' | 'member',
  calls: [] as { name: string; body?: unknown }[],
};

type Input = { params?: Record<string, string>; body?: unknown };
const handlers: Record<string, (input: Input) => IpcOutcome<unknown>> = {
  listWorkspaces: () => ({ ok: true, data: WORKSPACES }),
  listClusters: () => ({ ok: true, data: [] }),
  whoAmI: () => ({
    ok: true,
    data: {
      account: {
        accountId: 'a1',
        username: 'someone',
        role: service.role,
        workspaces: service.role === 'admin' ? 'all' : ['shop'],
        createdAt: '2026-11-01T00:00:00Z',
        passwordChangedAt: '2026-11-01T00:00:00Z',
        source: 'oidc',
        groups: ['shop-devs'],
      },
      sessionId: 's1',
      apiKeyId: null,
    },
  }),
  updateWorkspace: ({ params, body }) => ({
    ok: true,
    data: {
      ...WORKSPACES.find((w) => w.workspaceId === params?.workspaceId),
      clusterIds: [],
      ...(body ?? {}),
    },
  }),
};

beforeAll(() => {
  window.skiff = new Proxy({} as NonNullable<Window['skiff']>, {
    get: (_, name: string) => async (input: Input) => {
      service.calls.push({ name, body: input?.body });
      return handlers[name]?.(input) ?? notServed(name);
    },
  });
});
beforeEach(() => {
  service.calls = [];
  useClusters.setState({ workspaces: WORKSPACES, clusters: [], loaded: true, error: null });
});
afterEach(cleanup);

const field = () =>
  screen.getByRole('textbox', { name: 'Member groups of workspace shop' }) as HTMLInputElement;
const called = (name: string) => service.calls.filter((c) => c.name === name);
/** Both reads of the section answered: the clusters of each workspace, and who the caller is. */
const settled = () =>
  waitFor(() => {
    expect(called('whoAmI')).toHaveLength(1);
    expect(called('listClusters').length).toBeGreaterThanOrEqual(WORKSPACES.length);
  });

describe('Settings → Workspaces member groups', () => {
  it('shows the groups the workspace list carries, sends no write to read them, and an administrator saves a change', async () => {
    service.role = 'admin';
    render(<WorkspacesSection />);
    expect(field().value).toBe('shop-devs, ops');
    await settled();
    await waitFor(() => expect(field().readOnly).toBe(false));
    expect(called('updateWorkspace')).toEqual([]);
    await act(async () => {
      fireEvent.change(field(), { target: { value: 'shop-devs, ops, payments-devs' } });
      fireEvent.blur(field());
    });
    await waitFor(() =>
      expect(called('updateWorkspace')).toEqual([
        { name: 'updateWorkspace', body: { groups: ['shop-devs', 'ops', 'payments-devs'] } },
      ]),
    );
  });

  it('shows a member its groups read-only and saves nothing', async () => {
    service.role = 'member';
    render(<WorkspacesSection />);
    await settled();
    expect(field().value).toBe('shop-devs, ops');
    expect(field().readOnly).toBe(true);
    fireEvent.change(field(), { target: { value: '' } });
    fireEvent.blur(field());
    expect(called('updateWorkspace')).toEqual([]);
  });
});
