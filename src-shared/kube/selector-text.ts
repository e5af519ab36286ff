import { formatSelector, type Requirement } from './selector';

/** A metav1.LabelSelector, as workloads carry it in spec.selector. */
export interface LabelSelector {
  matchLabels?: Readonly<Record<string, string>>;
  matchExpressions?: ReadonlyArray<{ key: string; operator: string; values?: readonly string[] }>;
}

// The apiserver refuses any other operator when the object is written, so none reaches us.
const OPERATORS: Readonly<Record<string, Requirement['op']>> = {
  In: 'in',
  NotIn: 'notin',
  Exists: 'exists',
  DoesNotExist: '!exists',
};

/**
 * A label selector as the text `labelSelector` takes (and the selector box shows): matchLabels
 * first, then matchExpressions, in their order. Empty when the selector names nothing.
 */
export function selectorText(selector: LabelSelector | undefined): string {
  const requirements: Requirement[] = Object.entries(selector?.matchLabels ?? {}).map(([key, value]) => ({
    key,
    op: '=',
    values: [value],
  }));
  for (const e of selector?.matchExpressions ?? []) {
    const op = OPERATORS[e.operator];
    if (op) requirements.push({ key: e.key, op, values: [...(e.values ?? [])] });
  }
  return formatSelector(requirements);
}
