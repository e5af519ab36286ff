import { beforeEach, describe, expect, it } from 'vitest';
import { formatHash, parseHash, type Route, useRoute } from './route';

/** The History tab's place in the hash: what other views (the diagnosis) link to. */

const DEPLOYMENT = { kind: 'deployment', namespace: 'shop', name: 'checkout' };
const T1 = '2026-11-28T02:07:00.123Z';
const T2 = '2026-11-28T02:09:30.000Z';

const at = (history: Route['history'], tab: Route['tab'] = 'history'): Route => ({
  workspaceId: 'default',
  clusterId: 'demo',
  area: 'resources',
  kind: 'deployment',
  namespace: 'shop',
  selected: DEPLOYMENT,
  tab,
  ...(history ? { history } : {}),
});

beforeEach(() => {
  useRoute.setState({ ...at(undefined, 'overview'), history: undefined });
});

describe('route hash: the History tab', () => {
  it('round-trips a diff of two versions, a diff of one change, and a version shown as it was', () => {
    for (const view of [{ from: T1, to: T2 }, { to: T2 }, { at: T1 }]) {
      expect(parseHash(formatHash(at(view)))).toEqual(at(view));
    }
    expect(formatHash(at({ from: T1, to: T2 }))).toBe(
      `#ws=default&cl=demo&area=resources&kind=deployment&ns=shop&sel=deployment%2Fshop%2Fcheckout&tab=history&from=${encodeURIComponent(T1)}&to=${encodeURIComponent(T2)}`,
    );
  });

  it('reads the link the diagnosis writes by hand', () => {
    const r = parseHash(`#ws=default&cl=demo&sel=deployment/shop/checkout&tab=history&to=${T2}`);
    expect(r.selected).toEqual(DEPLOYMENT);
    expect(r.tab).toBe('history');
    expect(r.history).toEqual({ to: T2 });
  });

  it('keeps only moments, and only on the History tab', () => {
    expect(
      parseHash(`#sel=deployment/shop/checkout&tab=history&from=yesterday&to=${T2}&at=`).history,
    ).toEqual({
      to: T2,
    });
    // Date.parse reads this (the comment in brackets is ignored), but a hash value this long is no moment Skiff wrote.
    const long = 'Sat Nov 28 2026 02:07:00 GMT+0000 (Coordinated Universal Time, as a long comment)';
    expect(Date.parse(long)).not.toBeNaN();
    expect(
      parseHash(`#sel=deployment/shop/checkout&tab=history&at=${encodeURIComponent(long)}`).history,
    ).toBeUndefined();
    expect(parseHash('#sel=deployment/shop/checkout&tab=history').history).toBeUndefined();
    expect(parseHash(`#sel=deployment/shop/checkout&tab=yaml&to=${T2}`).history).toBeUndefined();
    expect(formatHash(at({ to: T2 }, 'yaml'))).not.toContain('to=');
  });
});

describe('route store: the History tab', () => {
  it('opens an object at a diff, and a new selection forgets it', () => {
    useRoute.getState().openHistory(DEPLOYMENT, { to: T2, from: undefined });
    let s = useRoute.getState();
    expect([s.area, s.selected, s.tab, s.history]).toEqual(['resources', DEPLOYMENT, 'history', { to: T2 }]);
    useRoute.getState().select({ kind: 'pod', namespace: 'shop', name: 'web-1' });
    s = useRoute.getState();
    expect([s.tab, s.history]).toEqual(['overview', undefined]);
  });

  it('sets what the open tab shows, and nothing clears it', () => {
    useRoute.getState().openHistory(DEPLOYMENT, {});
    expect(useRoute.getState().history).toBeUndefined();
    useRoute.getState().setHistory({ at: T1 });
    expect(useRoute.getState().history).toEqual({ at: T1 });
    useRoute.getState().setHistory({ at: '' });
    expect(useRoute.getState().history).toBeUndefined();
  });
});
