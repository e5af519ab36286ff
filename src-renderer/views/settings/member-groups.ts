/**
 * A workspace's member groups as one text field: identity-provider group names separated by commas
 * or new lines. Names are kept as typed apart from surrounding spaces (the provider's groups claim
 * is case-sensitive), empty entries are dropped and repeats kept once, in first-seen order.
 */

export function parseGroups(text: string): string[] {
  const out: string[] = [];
  for (const part of text.split(/[,\n]/)) {
    const name = part.trim();
    if (name && !out.includes(name)) out.push(name);
  }
  return out;
}

export function groupsText(groups: readonly string[]): string {
  return groups.join(', ');
}

/** Whether a typed text names other groups than those held (order and spacing do not count). */
export function groupsChanged(held: readonly string[], text: string): boolean {
  const next = parseGroups(text);
  return next.length !== held.length || next.some((g) => !held.includes(g));
}
