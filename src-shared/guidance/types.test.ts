import { describe, expect, it } from 'vitest';
import { describeAction, type GuidanceAction } from './types';

// One of every action variant: a new kind must be added here (and gets a label of its own).
const EVERY_ACTION: GuidanceAction[] = [
  { kind: 'open-logs', previous: false },
  { kind: 'open-logs', previous: true },
  { kind: 'show-field', path: 'spec.nodeSelector' },
  { kind: 'open-events' },
  { kind: 'open-owner' },
  { kind: 'open-node' },
  { kind: 'open-node-allocatable' },
  { kind: 'open-pods' },
  { kind: 'open-nodes' },
  { kind: 'show-conditions' },
  { kind: 'show-probes' },
  { kind: 'show-volumes' },
  { kind: 'show-resources' },
];

describe('describeAction', () => {
  it('every action gets a button label of its own', () => {
    const labels = EVERY_ACTION.map(describeAction);
    for (const label of labels) {
      expect(typeof label).toBe('string');
      expect(label.trim()).not.toBe('');
    }
    expect(new Set(labels).size).toBe(EVERY_ACTION.length);
  });

  it('a field action names the field it shows', () => {
    expect(describeAction({ kind: 'show-field', path: 'spec.tolerations' })).toContain('spec.tolerations');
  });

  it('the previous-container log button says so', () => {
    expect(describeAction({ kind: 'open-logs', previous: true })).toMatch(/previous/i);
    expect(describeAction({ kind: 'open-logs', previous: false })).not.toMatch(/previous/i);
  });
});
