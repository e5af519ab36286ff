import type { ComponentType } from 'react';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import type { Scope } from '../../api/queries';
import type { KindColumn, Row } from './columns';
import { cronjobColumns } from './cronjob/columns';
import { CronJobDetails } from './cronjob/Details';
import { daemonsetColumns } from './daemonset/columns';
import { DaemonSetDetails } from './daemonset/Details';
import { deploymentColumns } from './deployment/columns';
import { DeploymentDetails } from './deployment/Details';
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

export type DetailsComponent = ComponentType<{ wrapper: ResourceWrapper; scope: Scope }>;

interface KindView {
  columns: KindColumn[];
  Details: DetailsComponent;
  rowClass?: (r: Row) => string | undefined;
}

/**
 * Each kind's folder (types, status, columns, Details), Headlamp-style, wired here once. Typed by
 * the kinds table, so a kind added there does not compile until its folder has a line here.
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

export function kindView(kind: ResourceType): KindView {
  return KINDS[kind];
}

export function detailsFor(kind: ResourceType): DetailsComponent {
  return KINDS[kind].Details;
}
