import { type FormEvent, useId, useState } from 'react';
import type { Workspace } from '../../../src-shared/contract/models';
import { usePolling } from '../../hooks/usePolling';
import { useClusters } from '../../state/clusters';
import { api } from '../../state/connection';
import { useRoute } from '../../state/route';
import { AdminTable } from '../common/AdminTable';
import { problemText } from '../common/Problem';
import { groupsChanged, groupsText, parseGroups } from './member-groups';
import { useAllClusters } from './useAllClusters';

/** A workspace id from its name: the service wants a lower-case slug. */
export function slugify(name: string): string {
  return name
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 63)
    .replace(/-+$/, '');
}

/**
 * A workspace's identity-provider member groups, comma-separated, saved when the field is left or
 * Enter pressed and only when the names changed. Not `editable` (the caller is not an
 * administrator, or that is not known yet): read-only and saves nothing, since what a member is
 * shown is only its own groups (the service's rule) and saving it would remove the others.
 */
export function MemberGroupsField({
  workspace,
  groups,
  editable,
  onSave,
}: {
  workspace: Workspace;
  groups: readonly string[];
  editable: boolean;
  onSave: (groups: string[]) => void;
}) {
  const save = (text: string) => {
    if (editable && groupsChanged(groups, text)) onSave(parseGroups(text));
  };
  return (
    <input
      aria-label={`Member groups of workspace ${workspace.workspaceId}`}
      title={
        editable
          ? 'Identity-provider groups whose members belong to this workspace, separated by commas'
          : 'Your identity-provider groups that make you a member of this workspace; only administrators change them'
      }
      placeholder="no groups"
      defaultValue={groupsText(groups)}
      // A new answer from the service replaces what the field shows.
      key={groupsText(groups) + (editable ? '' : '?')}
      readOnly={!editable}
      onBlur={(e) => save(e.target.value)}
      onKeyDown={(e) => {
        if (e.key === 'Enter') save(e.currentTarget.value);
      }}
    />
  );
}

/** Workspaces: create, rename, assign clusters, remove. The default workspace always holds every cluster. */
export function WorkspacesSection() {
  const { workspaces, refresh } = useClusters();
  const current = useRoute((s) => s.workspaceId);
  const go = useRoute((s) => s.go);
  // Every cluster is in the default workspace: that is the pool to assign from.
  const all = useAllClusters();
  const members = usePolling(
    `settings/members/${workspaces.map((w) => w.workspaceId).join(',')}`,
    async (signal) => {
      const out = new Map<string, string[]>();
      for (const w of workspaces) {
        const r = await api().call(
          'listClusters',
          { params: { workspaceId: w.workspaceId }, query: { limit: '1000' } },
          { signal },
        );
        out.set(
          w.workspaceId,
          r.data.map((c) => c.clusterId),
        );
      }
      return out;
    },
    { intervalMs: 0 },
  );
  // The workspace list carries the member groups; only administrators may change them. Unknown
  // (still asking, or refused) counts as no: the fields stay read-only.
  const admin = usePolling(
    'settings/workspaces/admin',
    async (signal) => (await api().call('whoAmI', { params: {} }, { signal })).data.account.role === 'admin',
    { intervalMs: 0 },
  );
  const [name, setName] = useState('');
  const [id, setId] = useState('');
  const [groupsInput, setGroupsInput] = useState('');
  const [error, setError] = useState<string | null>(null);
  // Checkboxes move at once; the answer (or the next read) then confirms or corrects them.
  const [assigned, setAssigned] = useState<ReadonlyMap<string, string[]>>(new Map());
  const membersOf = (workspaceId: string) =>
    assigned.get(workspaceId) ?? members.data?.get(workspaceId) ?? [];
  const ids = { name: useId(), id: useId(), groups: useId(), groupsHint: useId() };

  const run = async (fn: () => Promise<unknown>): Promise<boolean> => {
    setError(null);
    try {
      await fn();
      await refresh();
      members.reload();
      return true;
    } catch (err) {
      setError(problemText(err));
      return false;
    }
  };
  const create = async (e: FormEvent) => {
    e.preventDefault();
    const workspaceId = id.trim() || slugify(name);
    const ok = await run(() =>
      api().call('createWorkspace', {
        params: {},
        body: { workspaceId, name: name.trim(), groups: parseGroups(groupsInput) },
      }),
    );
    if (ok) {
      setName('');
      setId('');
      setGroupsInput('');
    }
  };
  const rename = (w: Workspace, next: string) => {
    if (next && next !== w.name)
      void run(() =>
        api().call('updateWorkspace', { params: { workspaceId: w.workspaceId }, body: { name: next } }),
      );
  };
  const assign = async (w: Workspace, clusterId: string, on: boolean) => {
    const have = membersOf(w.workspaceId);
    const clusterIds = on ? [...new Set([...have, clusterId])] : have.filter((c) => c !== clusterId);
    setAssigned((prev) => new Map(prev).set(w.workspaceId, clusterIds));
    const ok = await run(() =>
      api().call('updateWorkspace', { params: { workspaceId: w.workspaceId }, body: { clusterIds } }),
    );
    // On failure the checkbox returns to what the service holds; on success the next read agrees.
    if (!ok) setAssigned((prev) => new Map([...prev].filter(([id]) => id !== w.workspaceId)));
  };
  const setGroups = (w: Workspace, groups: string[]) =>
    void run(() =>
      api().call('updateWorkspace', { params: { workspaceId: w.workspaceId }, body: { groups } }),
    );
  // A refusal is reported below the table, like every other change here.
  const remove = async (target: Workspace) => {
    const ok = await run(() =>
      api().call('deleteWorkspace', { params: { workspaceId: target.workspaceId } }),
    );
    if (ok && current === target.workspaceId) go({ workspaceId: 'default', clusterId: null, selected: null });
  };

  return (
    <section className="panel" aria-labelledby="ws-title" data-testid="workspace-settings">
      <h2 id="ws-title">Workspaces</h2>
      <AdminTable
        label="Workspaces"
        rows={workspaces}
        rowKey={(w) => w.workspaceId}
        rowAttributes={(w) => ({ 'data-workspace': w.workspaceId })}
        columns={[
          {
            header: 'Name',
            cell: (w) => (
              <input
                aria-label={`Name of workspace ${w.workspaceId}`}
                defaultValue={w.name}
                key={w.name}
                onBlur={(e) => rename(w, e.target.value.trim())}
                onKeyDown={(e) => {
                  if (e.key === 'Enter') rename(w, e.currentTarget.value.trim());
                }}
              />
            ),
          },
          { header: 'Id', cell: (w) => <code>{w.workspaceId}</code> },
          {
            header: 'Clusters',
            cell: (w) =>
              w.workspaceId === 'default' ? (
                <span className="muted">every cluster</span>
              ) : (
                <fieldset className="plain-fieldset inline-checks">
                  <legend className="sr-only">Clusters of {w.name}</legend>
                  {(all.data ?? []).map((c) => (
                    <label key={c.clusterId}>
                      <input
                        type="checkbox"
                        checked={membersOf(w.workspaceId).includes(c.clusterId)}
                        onChange={(e) => void assign(w, c.clusterId, e.target.checked)}
                      />{' '}
                      {c.name}
                    </label>
                  ))}
                  {all.data?.length === 0 && <span className="muted">no clusters loaded</span>}
                </fieldset>
              ),
          },
          {
            header: 'Member groups',
            cell: (w) => (
              <MemberGroupsField
                workspace={w}
                groups={w.groups}
                editable={admin.data === true}
                onSave={(groups) => setGroups(w, groups)}
              />
            ),
          },
        ]}
        action={{
          label: 'Remove',
          available: (w) => w.workspaceId !== 'default',
          title: 'Remove this workspace?',
          confirmLabel: 'Remove workspace',
          body: (w) => (
            <p>
              “{w.name}” goes away; its clusters stay available in the default workspace, and API keys limited
              to it stop matching it.
            </p>
          ),
          run: remove,
        }}
      />
      <form className="row form-row" onSubmit={create} aria-label="Create a workspace">
        <div className="field">
          <label htmlFor={ids.name}>New workspace name</label>
          <input
            id={ids.name}
            value={name}
            maxLength={100}
            placeholder="Team payments"
            onChange={(e) => setName(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.id}>Id</label>
          <input
            id={ids.id}
            value={id}
            maxLength={63}
            placeholder={slugify(name) || 'team-payments'}
            onChange={(e) => setId(e.target.value)}
          />
        </div>
        <div className="field">
          <label htmlFor={ids.groups}>Member groups</label>
          <input
            id={ids.groups}
            value={groupsInput}
            aria-describedby={ids.groupsHint}
            placeholder="payments-devs, payments-oncall"
            onChange={(e) => setGroupsInput(e.target.value)}
          />
          <span id={ids.groupsHint} className="muted">
            Optional. Identity-provider groups whose members belong, separated by commas.
          </span>
        </div>
        <button type="submit" disabled={name.trim() === '' || (id.trim() || slugify(name)) === ''}>
          Create workspace
        </button>
      </form>
      {error && (
        <p className="field-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
