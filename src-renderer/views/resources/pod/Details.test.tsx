// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { KubeObject } from '../../../../src-shared/contract/models';
import { type ResourceRef, useRoute } from '../../../state/route';
import { DetailPane } from '../detail/DetailPane';
import { CLUSTER, EVENTS, NODE, NS, PODS, WORKSPACE } from '../fixtures/cluster.test-support';
import { fakeBridge } from '../fixtures/fake-bridge.test-support';

/**
 * The pod pane as a person sees it, for each failure the guidance explains: the status badge,
 * the lead explanation with its first check, and where that check's button leads.
 */

const scope = { workspaceId: WORKSPACE, clusterId: CLUSTER };

beforeAll(() => {
  window.skiff = fakeBridge(Object.values(PODS), EVENTS);
});
beforeEach(() => {
  useRoute.setState({ tab: 'overview', focus: null, pending: null, logs: { previous: false } });
});
afterEach(cleanup);

/**
 * The pane for the selected pod. The logs tab streams over a channel of its own, tested with the
 * log viewer; here the pane stops there, once the route says which container's logs to show.
 */
function Pane({ target }: { target: ResourceRef }) {
  const tab = useRoute((s) => s.tab);
  return tab === 'logs' ? <p>logs of {target.name}</p> : <DetailPane scope={scope} target={target} />;
}

async function openPod(pod: KubeObject) {
  const target = { kind: 'pod' as const, name: pod.metadata.name, namespace: NS };
  useRoute.getState().select(target);
  render(<Pane target={target} />);
  return screen.findByTestId('pod-explanation');
}

function statusBadge(): HTMLElement {
  const status = document.querySelector<HTMLElement>('[data-section="status"]');
  if (!status) throw new Error('no Status section');
  return within(status).getAllByText((_, el) => el?.classList.contains('badge') ?? false)[0]!;
}

/** The lead finding's explanation: its title and first check, and the check's button if it has one. */
function lead(explanation: HTMLElement) {
  const finding = explanation.querySelector<HTMLElement>('.finding');
  const card = finding?.querySelector<HTMLElement>('.guidance');
  if (!finding || !card) throw new Error('no explained finding');
  const check = card.querySelector<HTMLElement>('.guidance-checks > li');
  if (!check) throw new Error('no checks');
  return {
    finding: finding.querySelector('.finding-title')?.textContent ?? '',
    title: card.querySelector('.guidance-title')?.textContent ?? '',
    open: (card as HTMLDetailsElement).open,
    check: check.textContent ?? '',
    button: check.querySelector('button'),
  };
}

/** The explanation of a warning event the cluster reported, by its reason. */
async function reported(reason: string) {
  const list = await screen.findByTestId('recent-warnings');
  const item = within(list)
    .getAllByRole('listitem')
    .find((li) => li.querySelector('.finding-title')?.textContent?.includes(reason));
  if (!item) throw new Error(`no ${reason} warning`);
  const card = item.querySelector<HTMLElement>('.guidance');
  return {
    title: card?.querySelector('.guidance-title')?.textContent ?? '',
    check: card?.querySelector('.guidance-checks > li:not([data-ref])') as HTMLElement,
    /** The steps that name an object, before the entry's own. */
    named: [...(card?.querySelectorAll<HTMLElement>('.guidance-checks > li[data-ref]') ?? [])],
  };
}

/** The pane was asked to bring `section` into view, and the pane has that section to show. */
function focused(section: string): boolean {
  return (
    useRoute.getState().focus?.section === section &&
    document.querySelector(`[data-section="${section}"]`) !== null
  );
}

function click(button: Element | null) {
  if (!button) throw new Error('no button');
  act(() => {
    fireEvent.click(button);
  });
}

describe('pod pane, per failure', () => {
  it('Pending with FailedScheduling: the scheduler verdict, broken down, and the conditions', async () => {
    const explanation = await openPod(PODS.unschedulable);
    expect(statusBadge().textContent).toBe('Pending');
    expect(statusBadge().className).toContain('badge-neutral');
    const first = lead(explanation);
    expect(first.finding).toContain('Condition PodScheduled is not met');
    expect(first.title).toBe('Pod cannot be scheduled');
    expect(first.open).toBe(true);
    expect(first.check).toContain('Read the condition message; Skiff breaks it down per reason.');
    const breakdown = within(explanation).getByTestId('scheduling-breakdown');
    expect(breakdown.textContent).toContain('0 of 4 nodes');
    expect(breakdown.textContent).toContain('Insufficient memory');
    // The event repeats the condition's message; its breakdown is not shown twice.
    const event = await reported('FailedScheduling');
    expect(event.title).toBe('No node fits the pod');
    expect(within(explanation).getAllByTestId('scheduling-breakdown')).toHaveLength(1);
    expect(first.button?.textContent).toBe('Conditions');
    click(first.button);
    expect(focused('conditions')).toBe(true);
    // No node holds the pod yet: the capacity button opens every node, where allocatable is compared.
    const allocatable = within(explanation).getAllByRole('button', { name: 'Node capacity vs. requests' })[0];
    expect(allocatable).toBeDefined();
    expect((allocatable as HTMLButtonElement).disabled).toBe(false);
    click(allocatable ?? null);
    expect(useRoute.getState().kind).toBe('node');
  });

  it('ImagePullBackOff: the pull error is read in the events', async () => {
    const explanation = await openPod(PODS.imagePullBackOff);
    expect(statusBadge().textContent).toBe('ImagePullBackOff');
    expect(statusBadge().className).toContain('badge-bad');
    const first = lead(explanation);
    expect(first.finding).toContain('Container app is waiting: ImagePullBackOff');
    expect(first.title).toBe('Image pull failing, retrying with back-off');
    expect(first.check).toContain('Read the exact pull error in the events');
    expect(first.button?.textContent).toBe('Events');
    click(first.button);
    expect(screen.getByRole('tabpanel').dataset.tab).toBe('events');
    expect(screen.getByRole('tab', { name: 'Events' }).getAttribute('aria-selected')).toBe('true');
  });

  it('CrashLoopBackOff: the logs of the crashed instance of the failing container, not the sidecar', async () => {
    const explanation = await openPod(PODS.crashLoop);
    expect(statusBadge().textContent).toBe('CrashLoopBackOff');
    expect(statusBadge().className).toContain('badge-bad');
    const first = lead(explanation);
    expect(first.finding).toContain('Container app is waiting: CrashLoopBackOff');
    expect(first.title).toBe('Container keeps crashing');
    expect(first.check).toContain(`kubectl -n ${NS} logs ${PODS.crashLoop.metadata.name} -c app --previous`);
    expect(first.button?.textContent).toBe('Logs of the previous container');
    click(first.button);
    expect(useRoute.getState().tab).toBe('logs');
    expect(useRoute.getState().logs).toEqual({ previous: true, container: 'app' });
  });

  it('OOMKilled: the requests and limits beside the usage', async () => {
    const explanation = await openPod(PODS.oomKilled);
    expect(statusBadge().textContent).toBe('OOMKilled');
    expect(statusBadge().className).toContain('badge-bad');
    const first = lead(explanation);
    expect(first.finding).toContain('Container app terminated: OOMKilled');
    expect(first.title).toBe('Killed for running out of memory');
    expect(first.check).toContain(`kubectl -n ${NS} top pod ${PODS.oomKilled.metadata.name} --containers`);
    // Exit 137 is explained as the kernel's SIGKILL.
    expect(explanation.querySelector('.finding')?.textContent).toContain('137');
    expect(first.button?.textContent).toBe('Requests and limits');
    click(first.button);
    expect(focused('resources')).toBe(true);
  });

  it('a failing readiness probe: the Unhealthy event leads to the probes, then the Ready condition', async () => {
    const explanation = await openPod(PODS.probeFailure);
    expect(statusBadge().textContent).toBe('Running');
    const unhealthy = await reported('Unhealthy');
    // "Not Ready" is true but says nothing of why; the probe's event does, so it leads.
    const first = lead(explanation);
    expect(first.finding).toContain('Unhealthy');
    expect(first.open).toBe(true);
    expect(first.title).toBe('Probe failed');
    const ready = explanation.querySelector('[data-finding="Ready"]') as HTMLElement;
    expect(ready.querySelector('.finding-title')?.textContent).toContain('Condition Ready is not met');
    expect(ready.querySelector('.guidance-title')?.textContent).toBe('Pod is not Ready');
    expect(ready.querySelector('.guidance-checks > li')?.textContent).toContain(
      'Read the condition reason and message.',
    );
    // The pod runs on a node, so the Ready card's Node button opens that node.
    const toNode = within(ready).getByRole('button', { name: 'Node' });
    expect(unhealthy.title).toBe('Probe failed');
    expect(unhealthy.check.textContent).toContain('Check the probe port, path, timeouts and thresholds.');
    // Only warnings are shown; the Normal "Started" event of the same pod is not.
    expect(screen.getByTestId('recent-warnings').textContent).not.toContain('Started');
    click(unhealthy.check.querySelector('button'));
    expect(focused('probes')).toBe(true);
    expect(document.querySelector('[data-section="probes"]')?.textContent).toContain('/ready');
    click(toNode);
    expect(useRoute.getState().selected).toEqual({ kind: 'node', name: NODE });
  });

  it('a volume that will not mount: the FailedMount event leads, naming the missing configmap', async () => {
    const explanation = await openPod(PODS.mountFailure);
    expect(statusBadge().textContent).toBe('ContainerCreating');
    expect(statusBadge().className).toContain('badge-neutral');
    const mount = await reported('FailedMount');
    // The sandbox condition only says the pod is not there yet; the event says why, so it leads.
    const first = lead(explanation);
    expect(first.finding).toContain('FailedMount');
    expect(first.open).toBe(true);
    expect(first.title).toBe('Volume could not be mounted');
    expect(
      explanation.querySelector('[data-finding="PodReadyToStartContainers"] details')?.hasAttribute('open'),
    ).toBe(false);
    expect(mount.title).toBe('Volume could not be mounted');
    expect(screen.getByTestId('recent-warnings').textContent).toContain('configmap "app-config" not found');
    // The object the message names comes first, linked, and marked missing once looked up.
    expect(mount.named).toHaveLength(1);
    const [configMap] = mount.named;
    expect(configMap!.textContent).toContain('ConfigMap app-config is named in the message.');
    expect(await within(configMap!).findByText('missing')).toBeTruthy();
    click(within(configMap!).getByRole('button', { name: /app-config/ }));
    expect(useRoute.getState().selected).toEqual({
      kind: 'configmap',
      namespace: PODS.mountFailure.metadata.namespace,
      name: 'app-config',
    });
    expect(mount.check.textContent).toContain('Read all FailedMount messages, oldest first.');
    click(mount.check.querySelector('button'));
    expect(screen.getByRole('tabpanel').dataset.tab).toBe('events');
  });

  it('Evicted: the node ran short, and status.message says of what', async () => {
    const explanation = await openPod(PODS.evicted);
    expect(statusBadge().textContent).toBe('Evicted');
    expect(statusBadge().className).toContain('badge-bad');
    const first = lead(explanation);
    expect(first.finding).toContain('Pod reason: Evicted');
    expect(first.title).toBe('Evicted by the kubelet');
    expect(first.check).toContain('status.message names the resource and the usage');
    expect(first.button?.textContent).toBe('Show status.message');
    click(first.button);
    expect(focused('status')).toBe(true);
    expect(document.querySelector('[data-section="status"]')?.textContent).toContain(
      'The node was low on resource: memory.',
    );
  });
});
