// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { useRoute } from '../../../state/route';
import { DetailPane } from '../detail/DetailPane';
import { CLUSTER, EVENTS, NODE, PODS, WORKSPACE } from '../fixtures/cluster.test-support';
import { fakeBridge } from '../fixtures/fake-bridge.test-support';
import { nodeUnder } from '../fixtures/nodes.test-support';

/**
 * The node pane under each pressure condition the guidance explains: the condition's badge, its
 * explanation with the first check, and where the card's first button leads.
 */

const scope = { workspaceId: WORKSPACE, clusterId: CLUSTER };
const NODES = {
  memory: nodeUnder('MemoryPressure', NODE),
  disk: nodeUnder('DiskPressure', 'worker-2'),
  pid: nodeUnder('PIDPressure', 'worker-3'),
  network: nodeUnder('NetworkUnavailable', 'worker-4'),
};

beforeAll(() => {
  window.skiff = fakeBridge([...Object.values(NODES), ...Object.values(PODS)], EVENTS);
});
beforeEach(() => {
  useRoute.setState({ tab: 'overview', focus: null, pending: null });
});
afterEach(cleanup);

async function openNode(name: string) {
  const target = { kind: 'node' as const, name };
  useRoute.getState().select(target);
  render(<DetailPane scope={scope} target={target} />);
  const section = await screen.findByRole('region', { name: 'Conditions' });
  const cards = section.querySelectorAll<HTMLElement>('.guidance');
  // Only the condition that fires is explained; the healthy ones (Ready=True, the rest False) are not.
  expect(cards).toHaveLength(1);
  const card = cards[0]!;
  return {
    section,
    badge: (type: string) => section.querySelector(`tr[data-condition="${type}"] .badge`),
    title: card.querySelector('.guidance-title')?.textContent ?? '',
    firstCheck: card.querySelector('.guidance-checks > li')?.textContent ?? '',
    firstButton: card.querySelector<HTMLButtonElement>('.guidance-checks button'),
  };
}

function click(button: Element | null) {
  if (!button) throw new Error('no button');
  act(() => {
    fireEvent.click(button);
  });
}

/** The pane was asked to bring `section` into view, and the pane has that section to show. */
function focused(section: string): boolean {
  return (
    useRoute.getState().focus?.section === section &&
    document.querySelector(`[data-section="${section}"]`) !== null
  );
}

describe('node pane, per pressure condition', () => {
  it('MemoryPressure: allocatable against what the pods on it requested', async () => {
    const pane = await openNode(NODE);
    expect(pane.badge('MemoryPressure')?.textContent).toBe('True');
    expect(pane.badge('MemoryPressure')?.className).toContain('badge-bad');
    expect(pane.badge('Ready')?.className).toContain('badge-ok');
    expect(pane.badge('DiskPressure')?.className).toContain('badge-ok');
    expect(pane.title).toBe('Node is low on memory');
    expect(pane.firstCheck).toContain(`kubectl top node ${NODE}`);
    expect(pane.firstButton?.textContent).toBe('Node capacity vs. requests');
    click(pane.firstButton);
    expect(focused('allocatable')).toBe(true);
    // The pods the node holds, each with its own status badge; the unscheduled pod is not among them.
    const pods = await screen.findByRole('region', { name: /^Pods on this node \(6\)/ });
    const crash = within(pods).getByText(`demo-broken/${PODS.crashLoop.metadata.name}`).closest('li');
    expect(crash?.querySelector('.badge')?.textContent).toBe('CrashLoopBackOff');
    expect(pods.textContent).not.toContain(PODS.unschedulable.metadata.name);
  });

  it('DiskPressure: the check is run on the node; the first button reads the events', async () => {
    const pane = await openNode('worker-2');
    expect(pane.badge('DiskPressure')?.textContent).toBe('True');
    expect(pane.badge('DiskPressure')?.className).toContain('badge-bad');
    expect(pane.badge('MemoryPressure')?.className).toContain('badge-ok');
    expect(pane.title).toBe('Node is low on disk');
    expect(pane.firstCheck).toContain('df -h /var/lib/kubelet /var/lib/containerd');
    expect(pane.firstButton?.textContent).toBe('Events');
    click(pane.firstButton);
    expect(screen.getByRole('tabpanel').dataset.tab).toBe('events');
  });

  it('PIDPressure: the pods on the node', async () => {
    const pane = await openNode('worker-3');
    expect(pane.badge('PIDPressure')?.textContent).toBe('True');
    expect(pane.badge('PIDPressure')?.className).toContain('badge-bad');
    expect(pane.title).toBe('Node is low on process IDs');
    expect(pane.firstCheck).toContain('cat /proc/sys/kernel/pid_max');
    expect(pane.firstButton?.textContent).toBe('Pods');
    click(pane.firstButton);
    expect(focused('node-pods')).toBe(true);
  });

  it('NetworkUnavailable: the CNI pods on this node', async () => {
    const pane = await openNode('worker-4');
    expect(pane.badge('NetworkUnavailable')?.textContent).toBe('True');
    expect(pane.badge('NetworkUnavailable')?.className).toContain('badge-bad');
    expect(pane.title).toBe('Node network not configured');
    expect(pane.firstCheck).toContain('--field-selector spec.nodeName=worker-4');
    expect(pane.firstButton?.textContent).toBe('Pods');
    click(pane.firstButton);
    expect(focused('node-pods')).toBe(true);
  });
});
