/**
 * A pod's usage as metrics.k8s.io reports it per container, summed and printed the way
 * `kubectl top pod` prints it: whole millicores and whole MiB.
 */
import { describe, expect, it } from 'vitest';
import { sumUsage } from './pod-usage';

describe('sumUsage', () => {
  it('adds CPU in every unit the metrics API uses: nanocores, microcores, millicores and cores', () => {
    expect(sumUsage([{ usage: { cpu: '250000000n' } }, { usage: { cpu: '5000u' } }]).cpu).toBe('255m');
    expect(sumUsage([{ usage: { cpu: '120m' } }, { usage: { cpu: '1.5' } }]).cpu).toBe('1620m');
  });

  it('rounds CPU to the nearest millicore', () => {
    expect(sumUsage([{ usage: { cpu: '1499999n' } }]).cpu).toBe('1m');
    expect(sumUsage([{ usage: { cpu: '1500001n' } }]).cpu).toBe('2m');
  });

  it('adds memory in binary and decimal units, and plain bytes', () => {
    expect(sumUsage([{ usage: { memory: '1Gi' } }, { usage: { memory: '512Mi' } }]).memory).toBe('1536Mi');
    expect(sumUsage([{ usage: { memory: '2048Ki' } }, { usage: { memory: '1048576' } }]).memory).toBe('3Mi');
    expect(sumUsage([{ usage: { memory: '1Ti' } }]).memory).toBe(`${1024 * 1024}Mi`);
    expect(sumUsage([{ usage: { memory: '10M' } }, { usage: { memory: '1G' } }]).memory).toBe(
      `${Math.round((10e6 + 1e9) / 1024 ** 2)}Mi`,
    );
    expect(sumUsage([{ usage: { memory: '3k' } }, { usage: { memory: '2T' } }]).memory).toBe(
      `${Math.round((3e3 + 2e12) / 1024 ** 2)}Mi`,
    );
  });

  it('skips a figure it cannot read or that is missing, and sums nothing to zero', () => {
    expect(
      sumUsage([{ usage: { cpu: 'lots', memory: '12 apples' } }, { usage: { cpu: '100m' } }, {}]),
    ).toEqual({ cpu: '100m', memory: '0Mi' });
    expect(sumUsage([])).toEqual({ cpu: '0m', memory: '0Mi' });
  });
});
