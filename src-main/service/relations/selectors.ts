/**
 * A metav1.LabelSelector as the shared selector type, with the apiserver's meaning: matchLabels
 * and matchExpressions all hold; the empty selector selects everything. An operator the apiserver
 * would refuse (none reaches a stored object) selects nothing rather than everything.
 */

import type { Requirement, Selector } from '../../../src-shared/kube/selector';
import { type Obj, objs, str, stringMap } from './json';

const OPERATORS: Readonly<Record<string, Requirement['op']>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!exists',
};

/** A requirement no labels satisfy: `key in ()`. */
const NOTHING: Requirement = { key: 'skiff.invalid/selector', op: 'in', values: [] };

export function labelSelector(selector: Obj): Selector {
  const out: Requirement[] = Object.entries(stringMap(selector.matchLabels) ?? {}).map(([key, value]) => ({
    key,
    op: '=',
    values: [value],
  }));
  for (const e of objs(selector.matchExpressions)) {
    const op = OPERATORS[str(e.operator) ?? ''];
    const key = str(e.key);
    if (!op || !key) {
      out.push(NOTHING);
      continue;
    }
    const values = Array.isArray(e.values) ? e.values.filter((v): v is string => typeof v === 'string') : [];
    out.push({ key, op, values });
  }
  return out;
}
