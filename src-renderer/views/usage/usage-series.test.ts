import { describe, expect, it } from 'vitest';
import type { NodeUsage, PodUsage } from '../../../src-shared/contract/usage-operations';
import { nodeChart, podChart, xRange } from './usage-series';

/** Recorded usage as the charts draw it: lines per container, bounds as flat lines, OOM kills as marks. */

const T = Date.UTC(2026, 0, 10, 12, 0, 0);
const at = (s: number) => new Date(T + s * 1000).toISOString();
const sec = (s: number) => T / 1000 + s;

const onePod: PodUsage = {
  points: [
    { time: at(0), containers: { app: { cpuMillicores: 250, memoryBytes: 100 } } },
    { time: at(30), containers: { app: { cpuMillicores: 500, memoryBytes: 200 } } },
  ],
  containers: [
    { name: 'app', requests: { cpuMillicores: 200, memoryBytes: 128 }, limits: { memoryBytes: 256 } },
  ],
  oomKills: [{ container: 'app', time: at(-60) }],
};

describe('podChart', () => {
  it('draws a one-container pod as Used, Request and Limit, CPU in cores, without container names', () => {
    const cpu = podChart(onePod, 'cpu');
    expect(cpu.xs).toEqual([sec(0), sec(30)]);
    expect(cpu.lines).toEqual([
      { label: 'Used', kind: 'usage', values: [0.25, 0.5] },
      { label: 'request', kind: 'request', values: [0.2, 0.2] },
    ]);
    expect(cpu.markers).toEqual([]);
    expect(cpu.latest).toEqual([{ label: 'Used', value: 0.5 }]);
  });

  it('marks the OOM kills on the memory chart only, in bytes with both bounds', () => {
    const memory = podChart(onePod, 'memory');
    expect(memory.lines).toEqual([
      { label: 'Used', kind: 'usage', values: [100, 200] },
      { label: 'request', kind: 'request', values: [128, 128] },
      { label: 'limit', kind: 'limit', values: [256, 256] },
    ]);
    expect(memory.markers).toEqual([{ x: sec(-60), label: 'OOMKilled' }]);
  });

  it('names the lines by container when there are several, and leaves a container missing from a sample as a gap', () => {
    const usage: PodUsage = {
      points: [
        { time: at(0), containers: { app: { cpuMillicores: 1, memoryBytes: 1 } } },
        {
          time: at(30),
          containers: {
            app: { cpuMillicores: 2, memoryBytes: 2 },
            side: { cpuMillicores: 3, memoryBytes: 3 },
          },
        },
      ],
      containers: [
        { name: 'app', requests: {}, limits: { memoryBytes: 10 } },
        { name: 'side', requests: {}, limits: {} },
      ],
      oomKills: [{ container: 'side', time: at(10) }],
    };
    const memory = podChart(usage, 'memory');
    expect(memory.lines).toEqual([
      { label: 'app', kind: 'usage', values: [1, 2] },
      { label: 'side', kind: 'usage', values: [null, 3] },
      { label: 'app limit', kind: 'limit', values: [10, 10] },
    ]);
    expect(memory.markers).toEqual([{ x: sec(10), label: 'side OOMKilled' }]);
    expect(memory.latest).toEqual([
      { label: 'app', value: 2 },
      { label: 'side', value: 3 },
    ]);
  });

  it('draws containers seen only in samples (a pod whose spec is not known) and an empty pod as nothing', () => {
    const usage: PodUsage = {
      points: [{ time: at(0), containers: { x: { cpuMillicores: 1000, memoryBytes: 5 } } }],
      containers: [],
      oomKills: [],
    };
    expect(podChart(usage, 'cpu').lines).toEqual([{ label: 'Used', kind: 'usage', values: [1] }]);
    expect(podChart({ points: [], containers: [], oomKills: [] }, 'cpu')).toEqual({
      xs: [],
      lines: [],
      markers: [],
      latest: [],
    });
  });
});

describe('nodeChart', () => {
  it('draws a node as Used with Allocatable and Capacity, each only when known', () => {
    const usage: NodeUsage = {
      points: [{ time: at(0), containers: { n1: { cpuMillicores: 1500, memoryBytes: 7 } } }],
      capacity: { cpuMillicores: 4000, memoryBytes: 16 },
      allocatable: { cpuMillicores: 3800 },
    };
    expect(nodeChart(usage, 'cpu').lines).toEqual([
      { label: 'Used', kind: 'usage', values: [1.5] },
      { label: 'Allocatable', kind: 'allocatable', values: [3.8] },
      { label: 'Capacity', kind: 'capacity', values: [4] },
    ]);
    expect(nodeChart(usage, 'memory').lines).toEqual([
      { label: 'Used', kind: 'usage', values: [7] },
      { label: 'Capacity', kind: 'capacity', values: [16] },
    ]);
    expect(nodeChart({ points: [{ time: at(0), containers: {} }] }, 'cpu').lines).toEqual([
      { label: 'Used', kind: 'usage', values: [null] },
    ]);
  });
});

describe('xRange', () => {
  it('spans the points and the marks, at least a minute; nothing to draw is undefined', () => {
    expect(xRange(podChart(onePod, 'memory'))).toEqual([sec(-60), sec(30)]);
    expect(xRange(podChart(onePod, 'cpu'))).toEqual([sec(0), sec(60)]);
    expect(xRange(podChart({ points: [], containers: [], oomKills: [] }, 'cpu'))).toBeUndefined();
  });
});
