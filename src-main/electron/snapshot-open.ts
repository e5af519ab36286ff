import type { Cluster } from '../../src-shared/contract/models';
import type { Principal } from '../service/context';
import { ProblemError } from '../service/errors';
import type { Service } from '../service/index';

/**
 * The desktop's "Open snapshot…" (dialog or drop): the file is already on this computer, so it is
 * opened where it lies instead of being uploaded, under the same rule as `POST /v1/snapshots`.
 */
export async function openSnapshotForDesktop(
  service: Service,
  path: string,
  principal: Principal,
): Promise<Cluster> {
  if (!principal.admin) {
    throw new ProblemError('admin_required', 'Only an administrator can open a snapshot.');
  }
  return service.snapshots.open(path);
}
