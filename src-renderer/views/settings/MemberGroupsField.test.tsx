// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemberGroupsField } from './WorkspacesSection';

/**
 * The member-groups field of a workspace row in Settings → Workspaces: shows what the service holds,
 * saves on leaving the field or Enter only when the names changed, and never offers to save when the
 * caller may not change workspaces (a member is shown only its own groups: saving would drop the rest).
 */

afterEach(cleanup);

const ws = { workspaceId: 'payments', name: 'Payments', groups: [] };

const show = (groups: string[], editable = true) => {
  const saved: string[][] = [];
  render(
    <MemberGroupsField workspace={ws} groups={groups} editable={editable} onSave={(g) => saved.push(g)} />,
  );
  const input = screen.getByRole('textbox', {
    name: 'Member groups of workspace payments',
  }) as HTMLInputElement;
  return { input, saved };
};

describe('a workspace’s member groups field', () => {
  it('shows the held groups and saves the typed names when left', () => {
    const { input, saved } = show(['shop-devs', 'ops']);
    expect(input.value).toBe('shop-devs, ops');
    expect(input.readOnly).toBe(false);
    fireEvent.change(input, { target: { value: 'shop-devs, ops, payments-devs' } });
    fireEvent.blur(input);
    expect(saved).toEqual([['shop-devs', 'ops', 'payments-devs']]);
  });

  it('saves on Enter, and an emptied field removes every group', () => {
    const { input, saved } = show(['shop-devs']);
    fireEvent.change(input, { target: { value: ' ' } });
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(saved).toEqual([[]]);
  });

  it('saves nothing when only order or spacing changed', () => {
    const { input, saved } = show(['a', 'b']);
    fireEvent.change(input, { target: { value: 'b,a ' } });
    fireEvent.blur(input);
    expect(saved).toEqual([]);
  });

  it('is read-only, shows the groups and saves nothing when the caller may not change workspaces', () => {
    const { input, saved } = show(['shop-devs'], false);
    expect(input.readOnly).toBe(true);
    expect(input.value).toBe('shop-devs');
    expect(input.title).toContain('only administrators change them');
    fireEvent.change(input, { target: { value: 'x' } });
    fireEvent.blur(input);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(saved).toEqual([]);
  });
});
