/** metrics.k8s.io answers as usage rows, and the merge of samples into one point (CPU mean, memory max). */
import { describe, expect, it } from 'vitest';
import { figures, mergeSamples, nodeRows, podRows } from './samples';

describe('figures', () => {
  it('reads cpu in any unit as millicores (to thousandths) and memory as whole bytes', () => {
    expect(figures({ cpu: '123456789n', memory: '1024Ki' })).toEqual({
      cpuMillicores: 123.457,
      memoryBytes: 1_048_576,
    });
    expect(figures({ cpu: '250m', memory: '1Mi' })).toEqual({ cpuMillicores: 250, memoryBytes: 1_048_576 });
    expect(figures({ cpu: '2', memory: '1500' })).toEqual({ cpuMillicores: 2000, memoryBytes: 1500 });
    expect(figures({ cpu: '1500u', memory: '1k' })).toEqual({ cpuMillicores: 1.5, memoryBytes: 1000 });
    expect(figures({ cpu: '0', memory: '0' })).toEqual({ cpuMillicores: 0, memoryBytes: 0 });
    expect(figures({ cpu: '1n', memory: '0.4' })).toEqual({ cpuMillicores: 0, memoryBytes: 0 });
    expect(figures({ cpu: '1n', memory: '0.6' })).toEqual({ cpuMillicores: 0, memoryBytes: 1 });
  });

  it('is undefined when either figure is missing, not text, does not parse or is negative', () => {
    expect(figures(undefined)).toBeUndefined();
    expect(figures({ cpu: '1m' })).toBeUndefined();
    expect(figures({ memory: '1Ki' })).toBeUndefined();
    expect(figures({ cpu: 5, memory: '1Ki' })).toBeUndefined();
    expect(figures({ cpu: '1m', memory: 5 })).toBeUndefined();
    expect(figures({ cpu: 'lots', memory: '1Ki' })).toBeUndefined();
    expect(figures({ cpu: '1m', memory: 'lots' })).toBeUndefined();
    expect(figures({ cpu: '-1m', memory: '1Ki' })).toBeUndefined();
    expect(figures({ cpu: '1m', memory: '-1Ki' })).toBeUndefined();
  });
});

describe('podRows', () => {
  it('makes one row per pod, by container, leaving out unreadable containers and pods left with none', () => {
    const list = {
      items: [
        {
          metadata: { name: 'a', namespace: 'ns' },
          containers: [
            { name: 'app', usage: { cpu: '10m', memory: '1Ki' } },
            { name: 'bad', usage: { cpu: 'x', memory: '1Ki' } },
            { usage: { cpu: '1m', memory: '1Ki' } },
            null,
          ],
        },
        { metadata: { name: 'none', namespace: 'ns' }, containers: [{ name: 'bad', usage: {} }] },
        { metadata: { name: 'no-containers', namespace: 'ns' } },
        { metadata: { namespace: 'ns' }, containers: [{ name: 'app', usage: { cpu: '1m', memory: '1' } }] },
        { metadata: { name: 'no-ns' }, containers: [{ name: 'app', usage: { cpu: '1m', memory: '1' } }] },
        {},
      ],
    };
    expect(podRows(list)).toEqual([
      {
        subject: 'pod',
        namespace: 'ns',
        name: 'a',
        containers: { app: { cpuMillicores: 10, memoryBytes: 1024 } },
      },
    ]);
  });

  it('answers nothing for anything that is not a list', () => {
    for (const bad of [undefined, null, 5, 'x', {}, { items: 'x' }, { items: {} }])
      expect(podRows(bad)).toEqual([]);
  });
});

describe('nodeRows', () => {
  it('makes one row per node, its one entry named after it; unreadable nodes are left out', () => {
    const list = {
      items: [
        { metadata: { name: 'n1' }, usage: { cpu: '1500m', memory: '2Gi' } },
        { metadata: { name: 'n2' }, usage: { cpu: '?', memory: '2Gi' } },
        { metadata: {}, usage: { cpu: '1', memory: '1' } },
        { metadata: { name: 'n3' } },
        { usage: { cpu: '1', memory: '1' } },
      ],
    };
    expect(nodeRows(list)).toEqual([
      {
        subject: 'node',
        namespace: '',
        name: 'n1',
        containers: { n1: { cpuMillicores: 1500, memoryBytes: 2 * 1024 ** 3 } },
      },
    ]);
    expect(nodeRows(null)).toEqual([]);
  });
});

describe('mergeSamples', () => {
  it('keeps CPU’s mean and memory’s maximum per container, over the samples that hold it', () => {
    expect(
      mergeSamples([
        { app: { cpuMillicores: 10, memoryBytes: 100 } },
        { app: { cpuMillicores: 20, memoryBytes: 300 }, side: { cpuMillicores: 5, memoryBytes: 7 } },
        { app: { cpuMillicores: 60, memoryBytes: 200 } },
      ]),
    ).toEqual({ app: { cpuMillicores: 30, memoryBytes: 300 }, side: { cpuMillicores: 5, memoryBytes: 7 } });
  });

  it('rounds the mean to thousandths of a millicore, and merges nothing into nothing', () => {
    expect(
      mergeSamples([
        { a: { cpuMillicores: 1, memoryBytes: 0 } },
        { a: { cpuMillicores: 1, memoryBytes: 0 } },
        { a: { cpuMillicores: 2, memoryBytes: 0 } },
      ]),
    ).toEqual({ a: { cpuMillicores: 1.333, memoryBytes: 0 } });
    expect(mergeSamples([])).toEqual({});
  });
});
