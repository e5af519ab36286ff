export const SERVICE_NODE_FLAGS: readonly string[];
export function serviceArgs(args?: readonly string[]): string[];
export function ensureServiceBuilt(): void;
