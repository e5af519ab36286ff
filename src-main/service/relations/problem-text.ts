/** The one-line reason a kind could not be read, for an answer's gaps: the problem's own detail. */

import { ProblemError } from '../errors';

export function problemDetail(err: unknown): string {
  if (err instanceof ProblemError) return `${err.code}: ${err.message}`;
  return err instanceof Error ? err.message : String(err);
}
