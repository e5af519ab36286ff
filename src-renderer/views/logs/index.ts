/**
 * The logs viewer. Mount it where a pod's or workload's logs belong:
 *
 *   <LogViewer workspaceId={ws} clusterId={cl} namespace={ns} pod={name}
 *              container={route.logs.container} previous={route.logs.previous} />
 *   <LogViewer workspaceId={ws} clusterId={cl} namespace={ns} workload={{ kind: 'deployment', name }} />
 *
 * It fills its parent's height (min 420 px) and owns its stream, worker and terminal; changing a
 * prop restarts the stream.
 */
export { LogViewer, type LogViewerProps } from './LogViewer';
