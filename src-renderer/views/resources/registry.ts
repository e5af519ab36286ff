import type { ComponentType } from 'react';
import type { ResourceWrapper } from '../../../src-shared/contract/models';
import type { ResourceType } from '../../../src-shared/kube/kinds';
import type { Scope } from '../../api/queries';
import type { KindColumn, Row } from './columns';
import { CronJobDetails } from './cronjob/Details';
import { cronjobColumns } from './cronjob/List';
import { DaemonSetDetails } from './daemonset/Details';
import { daemonsetColumns } from './daemonset/List';
import { DeploymentDetails } from './deployment/Details';
import { deploymentColumns } from './deployment/List';
import { JobDetails } from './job/Details';
import { jobColumns } from './job/List';
import { NamespaceDetails } from './namespace/Details';
import { namespaceColumns } from './namespace/List';
import { NodeDetails } from './node/Details';
import { nodeColumns } from './node/List';
import { PodDetails } from './pod/Details';
import { podColumns, podRowClass } from './pod/List';
import { ServiceDetails } from './service/Details';
import { serviceColumns } from './service/List';
import { StatefulSetDetails } from './statefulset/Details';
import { statefulsetColumns } from './statefulset/List';

export type DetailsComponent = ComponentType<{ wrapper: ResourceWrapper; scope: Scope }>;

interface KindView {
  columns: KindColumn[];
  Details: DetailsComponent;
  rowClass?: (r: Row) => string | undefined;
}

/** Each kind's {List, Details} pair, Headlamp-style: one folder per kind, wired here once. */
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
