// @vitest-environment happy-dom
import { cleanup, render } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { Row } from '../columns';
import { podColumns } from './columns';
import type { Pod } from './types';

/** The Ready cell's colour: a shortfall warns only while the pod is still meant to run. */

afterEach(cleanup);

const ready = podColumns.find((c) => c.id === 'ready');

function cell(phase: string, isReady: boolean): HTMLElement {
  const pod: Pod = {
    metadata: { name: 'p', namespace: 'n' },
    spec: { containers: [{ name: 'a' }] },
    status: { phase, containerStatuses: [{ name: 'a', ready: isReady }] },
  };
  const row = { resource: pod } as unknown as Row;
  if (!ready?.render) throw new Error('the pod list has no Ready column');
  const { container } = render(<div>{ready.render(row)}</div>);
  const span = container.querySelector('span');
  if (!span) throw new Error('no cell');
  return span;
}

describe('pod Ready column', () => {
  it('does not warn on a Completed pod whose 0/1 is its normal end', () => {
    const span = cell('Succeeded', false);
    expect(span.textContent).toBe('0/1');
    expect(span.className).not.toContain('text-warn');
  });
  it('does not warn on a Failed pod, whose badge already says so', () => {
    expect(cell('Failed', false).className).not.toContain('text-warn');
  });
  it('warns on a running pod that is not ready', () => {
    const span = cell('Running', false);
    expect(span.textContent).toBe('0/1');
    expect(span.className).toContain('text-warn');
  });
  it('does not warn on a running pod that is ready', () => {
    expect(cell('Running', true).className).not.toContain('text-warn');
  });
});
