import type { OperationHandlers } from '../context';
import { ProblemError } from '../errors';

// PLACEHOLDER while issue 10 §2 is built this session: the capture and open helpers replace these.
const pending = async (): Promise<never> => {
  throw new ProblemError('route_not_found', 'Snapshots are not built yet.');
};

export function snapshotHandlers(): Pick<
  OperationHandlers,
  'createSnapshot' | 'getSnapshot' | 'downloadSnapshot' | 'openSnapshot'
> {
  return { createSnapshot: pending, getSnapshot: pending, downloadSnapshot: pending, openSnapshot: pending };
}
