import { describe, expect, it } from 'vitest';
import { parseQuantity } from './quantity';

describe('parseQuantity', () => {
  it('binary suffixes are powers of 1024', () => {
    expect(parseQuantity('1Ki')).toBe(1024);
    expect(parseQuantity('1.5Mi')).toBe(1.5 * 2 ** 20);
    expect(parseQuantity('2Gi')).toBe(2 * 2 ** 30);
    expect(parseQuantity('1Ti')).toBe(2 ** 40);
    expect(parseQuantity('1Pi')).toBe(2 ** 50);
    expect(parseQuantity('1Ei')).toBe(2 ** 60);
  });
  it('decimal suffixes are powers of ten, none is one', () => {
    expect(parseQuantity('250m')).toBe(0.25);
    expect(parseQuantity('5n')).toBeCloseTo(5e-9, 20);
    expect(parseQuantity('7u')).toBeCloseTo(7e-6, 15);
    expect(parseQuantity('3')).toBe(3);
    expect(parseQuantity('2k')).toBe(2000);
    expect(parseQuantity('2M')).toBe(2e6);
    expect(parseQuantity('2G')).toBe(2e9);
    expect(parseQuantity('2T')).toBe(2e12);
    expect(parseQuantity('2P')).toBe(2e15);
    expect(parseQuantity('2E')).toBe(2e18);
  });
  it('exponents, signs, surrounding spaces and plain numbers', () => {
    expect(parseQuantity('2e3')).toBe(2000);
    expect(parseQuantity('1E-3')).toBe(0.001);
    expect(parseQuantity('1e10')).toBe(1e10);
    expect(parseQuantity('-1')).toBe(-1);
    expect(parseQuantity('+4')).toBe(4);
    expect(parseQuantity(' 8Gi ')).toBe(8 * 2 ** 30);
    expect(parseQuantity(12)).toBe(12);
  });
  it('anything else is NaN, never 0', () => {
    for (const bad of [undefined, '', 'many', '1Xi', '1 Gi', 'Gi', '1Gi!', 'x1'])
      expect(parseQuantity(bad)).toBeNaN();
  });
});
