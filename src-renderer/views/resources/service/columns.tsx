import { view } from '../../../kube/meta';
import type { KindColumn, Row } from '../columns';
import { externalIp, servicePorts } from './status';
import type { Service } from './types';

const s = (r: Row) => view<Service>(r.resource);

export const serviceColumns: KindColumn[] = [
  { id: 'type', header: 'Type', width: '7.5rem', value: (r) => s(r).spec?.type ?? 'ClusterIP' },
  { id: 'clusterIP', header: 'Cluster IP', width: '8rem', value: (r) => s(r).spec?.clusterIP ?? '' },
  { id: 'externalIP', header: 'External IP', width: '8rem', value: (r) => externalIp(s(r)) },
  { id: 'ports', header: 'Ports', width: 'minmax(8rem, 1.5fr)', value: (r) => servicePorts(s(r)) },
];
