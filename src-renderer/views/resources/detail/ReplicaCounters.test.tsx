// @vitest-environment happy-dom
import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useLists } from '../../../state/lists';
import { useRoute } from '../../../state/route';
import { NS, wrap } from '../fixtures/cluster.test-support';
import { ReplicaCounters } from './ReplicaCounters';

afterEach(cleanup);

const web = wrap({
  apiVersion: 'apps/v1',
  kind: 'Deployment',
  metadata: { name: 'web', namespace: NS },
  spec: { replicas: 3, selector: { matchLabels: { app: 'web' } } },
});

function counter(label: string): { n: string; tone: string } {
  const li = screen.getByText(label).closest('li');
  return {
    n: li?.querySelector('.counter-n')?.textContent ?? '',
    tone: li?.className.match(/counter-(ok|warn|neutral)/)?.[1] ?? '',
  };
}

describe('ReplicaCounters', () => {
  it('warns where a count falls short of desired or a bad count is above zero', () => {
    render(
      <ReplicaCounters
        wrapper={web}
        selector={{ matchLabels: { app: 'web' } }}
        desired={3}
        counts={[
          ['unavailable', 1, 'over'],
          ['ready', 2, 'short'],
          ['current', 3],
          ['available', 3, 'short'],
          ['misscheduled', undefined, 'over'],
        ]}
      />,
    );
    expect(screen.getByRole('region', { name: 'Replicas' })).toBeDefined();
    expect(counter('desired')).toEqual({ n: '3', tone: 'neutral' });
    expect(counter('current')).toEqual({ n: '3', tone: 'neutral' });
    expect(counter('ready')).toEqual({ n: '2', tone: 'warn' });
    expect(counter('available')).toEqual({ n: '3', tone: 'ok' });
    expect(counter('unavailable')).toEqual({ n: '1', tone: 'warn' });
    // Not reported reads as none, which is fine for a count that should be zero.
    expect(counter('misscheduled')).toEqual({ n: '0', tone: 'ok' });
    // Desired comes first, then the counts in the order given.
    const labels = [...document.querySelectorAll('.counter-label')].map((e) => e.textContent);
    expect(labels).toEqual(['desired', 'unavailable', 'ready', 'current', 'available', 'misscheduled']);
  });

  it('opens the pods its selector picks, under its own title', () => {
    render(
      <ReplicaCounters
        wrapper={web}
        selector={{ matchLabels: { app: 'web', tier: 'front' } }}
        desired={0}
        counts={[['ready', 0, 'short']]}
        title="Pods per node"
      />,
    );
    expect(screen.getByRole('region', { name: 'Pods per node' })).toBeDefined();
    expect(counter('ready').tone).toBe('ok');
    act(() => {
      fireEvent.click(screen.getByRole('button', { name: 'Show its pods' }));
    });
    expect(useRoute.getState()).toMatchObject({ kind: 'pod', namespace: NS, selected: null });
    expect(useLists.getState().byKind.pod?.selectorText).toBe('app=web,tier=front');
  });
});
