// @vitest-environment happy-dom
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { MemberGroupsField } from './WorkspacesSection';

/**
 * The member-groups field of a workspace row in Settings → Workspaces: shows what the service holds,
 * saves on leaving the field or Enter only when the names changed, and never offers to save over
 * groups it could not read.
 */

afterEach(cleanup);

const ws = { workspaceId: 'payments', name: 'Payments' };

const show = (groups: string[] | null) => {
  const saved: string[][] = [];
  render(<MemberGroupsField workspace={ws} groups={groups} onSave={(g) => saved.push(g)} />);
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

  it('is read-only and saves nothing when the service did not say which groups it holds', () => {
    const { input, saved } = show(null);
    expect(input.readOnly).toBe(true);
    expect(input.placeholder).toBe('unknown');
    fireEvent.change(input, { target: { value: 'x' } });
    fireEvent.blur(input);
    expect(saved).toEqual([]);
  });
});
