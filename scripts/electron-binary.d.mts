export function electronBinary(env?: NodeJS.ProcessEnv): { path: string } | { problem: string };
export function electronProblem(env?: NodeJS.ProcessEnv): string | null;
