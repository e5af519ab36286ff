import { describe, expect, it } from 'vitest';
import { badgeRem, sizeBadgeColumns } from './badgeWidth';
import { CELL_PAD_REM } from './fitColumns';

/** Nothing is laid out here (node): the per-character estimate stands in for the measure. */

const rows = [{ s: 'Running' }, { s: 'CreateContainerConfigError' }, { s: 'Running' }];
const status = { id: 'status', width: 'minmax(9rem, 1.2fr)', badge: (r: { s: string }) => r.s };

describe('sizeBadgeColumns', () => {
  it("raises a badge column's minimum to its widest badge and keeps its growth", () => {
    const [sized] = sizeBadgeColumns([status], rows);
    const need = badgeRem('CreateContainerConfigError') + CELL_PAD_REM;
    expect(need).toBeGreaterThan(9);
    expect(sized!.width).toBe(`minmax(${need}rem, 1.2fr)`);
    expect(badgeRem('CreateContainerConfigError')).toBe(need - CELL_PAD_REM);
  });

  it('turns a fixed track into the wider fixed one', () => {
    const [sized] = sizeBadgeColumns([{ ...status, width: '2rem' }], rows);
    expect(sized!.width).toBe(`${badgeRem('CreateContainerConfigError') + CELL_PAD_REM}rem`);
  });

  it('leaves columns without badges, and badge columns wide enough already, as they were', () => {
    const name = { id: 'name', width: 'minmax(14rem, 3fr)' };
    const wide = { ...status, width: 'minmax(30rem, 1fr)' };
    const out = sizeBadgeColumns([name, wide, status], [{ s: 'Ok' }]);
    expect(out[0]).toBe(name);
    expect(out[1]).toBe(wide);
    expect(out[2]).toBe(status);
    expect(badgeRem('Ok')).toBeLessThan(badgeRem('Running'));
  });
});
