import type { ComponentType } from 'react';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import type { Scope } from '../../api/queries';
import { isBuiltInType, type KindEntry } from '../../kube/kind-catalog';
import type { KindColumn, Row } from './columns';
import { cronjobColumns } from './cronjob/columns';
import { CronJobDetails } from './cronjob/Details';
import { daemonsetColumns } from './daemonset/columns';
import { DaemonSetDetails } from './daemonset/Details';
import { deploymentColumns } from './deployment/columns';
import { DeploymentDetails } from './deployment/Details';
import { genericColumns } from './generic/columns';
import { GenericDetails } from './generic/Details';
import { jobColumns } from './job/columns';
import { JobDetails } from './job/Details';
import { namespaceColumns } from './namespace/columns';
import { NamespaceDetails } from './namespace/Details';
import { nodeColumns } from './node/columns';
import { NodeDetails } from './node/Details';
import { podColumns, podRowClass } from './pod/columns';
import { PodDetails } from './pod/Details';
import { serviceColumns } from './service/columns';
import { ServiceDetails } from './service/Details';
import { statefulsetColumns } from './statefulset/columns';
import { StatefulSetDetails } from './statefulset/Details';

export type DetailsComponent = ComponentType<{ wrapper: ResourceWrapper; scope: Scope; entry: KindEntry }>;

export interface KindView {
  /** The kind's own columns, between the namespace and the age. */
  columns: KindColumn[];
  Details: DetailsComponent;
  rowClass?: (r: Row) => string | undefined;
}

/**
 * Each of the nine's folder (types, status, columns, Details), Headlamp-style, wired here once. Typed
 * by the kinds table, so a kind added there does not compile until its folder has a line here. Every
 * other kind the cluster serves gets the generic folder: its status from conditions, its CRD's
 * printer columns, and a detail pane that reads any object.
 */
const KINDS: Record<ResourceType, KindView> = {
  node: { columns: nodeColumns, Details: NodeDetails },
  namespace: { columns: namespaceColumns, Details: NamespaceDetails },
  deployment: { columns: deploymentColumns, Details: DeploymentDetails },
  statefulset: { columns: statefulsetColumns, Details: StatefulSetDetails },
  daemonset: { columns: daemonsetColumns, Details: DaemonSetDetails },
  job: { columns: jobColumns, Details: JobDetails },
  cronjob: { columns: cronjobColumns, Details: CronJobDetails },
  pod: { columns: podColumns, Details: PodDetails, rowClass: podRowClass },
  service: { columns: serviceColumns, Details: ServiceDetails },
};

/**
 * The view of a kind. `rows` are the list's objects: a generic list shows a status column only
 * when some object has a Ready or Available condition.
 */
export function kindView(entry: KindEntry, rows: readonly Row[] = []): KindView {
  const t = entry.resourceType;
  if (isBuiltInType(t)) return KINDS[t];
  return { columns: genericColumns(entry, rows), Details: GenericDetails };
}

export function detailsFor(entry: KindEntry): DetailsComponent {
  const t = entry.resourceType;
  return isBuiltInType(t) ? KINDS[t].Details : GenericDetails;
}
