export const SERVICE_NODE_FLAGS: readonly string[];
export function serviceArgs(args?: readonly string[]): string[];
export function ensureServiceBuilt(): void;
export function nodeVersionProblem(
  version?: string,
  execPath?: string,
  args?: readonly string[],
): string | null;
