import { explainExitCode } from '../../../../src-shared/guidance';
import { age, formatQuantity } from '../../../kube/format';
import { Badge } from '../../common/Badge';
import { KeyValue } from '../../common/KeyValue';
import { stateName } from '../pod/status';
import type { Container, ContainerState, ContainerStatus, Probe } from '../pod/types';

export function probeText(p: Probe | undefined): string | null {
  if (!p) return null;
  const how = p.httpGet
    ? `GET ${p.httpGet.scheme === 'HTTPS' ? 'https' : 'http'}://:${p.httpGet.port ?? ''}${p.httpGet.path ?? '/'}`
    : p.tcpSocket
      ? `TCP :${p.tcpSocket.port ?? ''}`
      : p.grpc
        ? `gRPC :${p.grpc.port ?? ''}`
        : p.exec
          ? `exec ${(p.exec.command ?? []).join(' ')}`
          : 'unknown';
  const timing = `delay=${p.initialDelaySeconds ?? 0}s timeout=${p.timeoutSeconds ?? 1}s period=${p.periodSeconds ?? 10}s #failure=${p.failureThreshold ?? 3}`;
  return `${how} ${timing}`;
}

/** The container state in words, with reason, exit code (explained) and times, like `kubectl describe`. */
export function StateText({ state }: { state: ContainerState | undefined }) {
  if (state?.running)
    return <span>Running since {state.running.startedAt ? `${age(state.running.startedAt)} ago` : '—'}</span>;
  if (state?.waiting)
    return (
      <span>
        <Badge tone="bad">{state.waiting.reason ?? 'Waiting'}</Badge>
        {state.waiting.message ? <span className="wrap"> {state.waiting.message}</span> : null}
      </span>
    );
  if (state?.terminated) {
    const t = state.terminated;
    const exit = explainExitCode(t.exitCode, t.signal);
    return (
      <span>
        <Badge tone={t.exitCode === 0 ? 'ok' : 'bad'}>{t.reason ?? 'Terminated'}</Badge> exit code{' '}
        {t.exitCode}
        {exit.signalName ? ` (${exit.signalName})` : ''} — <span className="muted">{exit.title}</span>
        {t.finishedAt ? <span className="muted">; finished {age(t.finishedAt)} ago</span> : null}
        {t.message ? <span className="wrap"> {t.message}</span> : null}
      </span>
    );
  }
  return <span className="muted">not reported</span>;
}

function resourcesText(c: Container, which: 'requests' | 'limits'): string | null {
  const r = c.resources?.[which];
  if (!r) return null;
  const parts = Object.entries(r)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k} ${formatQuantity(k, v)}`);
  return parts.length ? parts.join(', ') : null;
}

/** One container: its spec beside its live status (when the object is a pod). */
export function ContainerCard({ c, status }: { c: Container; status?: ContainerStatus | undefined }) {
  const state = stateName(status);
  return (
    <article className="container-card" aria-label={`container ${c.name}`} data-container={c.name}>
      <header>
        <h4>{c.name}</h4>
        {status && (
          <>
            <Badge
              tone={
                state === 'running' ? (status.ready ? 'ok' : 'warn') : state === 'waiting' ? 'bad' : 'neutral'
              }
            >
              {state}
            </Badge>
            <span className="muted">{status.ready ? 'ready' : 'not ready'}</span>
            <span className={(status.restartCount ?? 0) > 0 ? 'text-warn' : 'muted'}>
              {status.restartCount ?? 0} restart{status.restartCount === 1 ? '' : 's'}
            </span>
          </>
        )}
      </header>
      <KeyValue
        pairs={[
          ['Image', <code key="i">{c.image ?? '—'}</code>],
          ['Pull policy', c.imagePullPolicy],
          ['State', status ? <StateText key="s" state={status.state} /> : null],
          [
            'Last state',
            status?.lastState?.terminated ? <StateText key="l" state={status.lastState} /> : null,
          ],
          ['Command', c.command?.length ? <code key="c">{c.command.join(' ')}</code> : null],
          ['Args', c.args?.length ? <code key="a">{c.args.join(' ')}</code> : null],
          [
            'Ports',
            c.ports
              ?.map((p) => `${p.containerPort}/${p.protocol ?? 'TCP'}${p.name ? ` (${p.name})` : ''}`)
              .join(', '),
          ],
          ['Requests', resourcesText(c, 'requests')],
          ['Limits', resourcesText(c, 'limits')],
          ['Liveness', probeText(c.livenessProbe)],
          ['Readiness', probeText(c.readinessProbe)],
          ['Startup', probeText(c.startupProbe)],
          [
            'Mounts',
            c.volumeMounts?.map((m) => `${m.mountPath} ← ${m.name}${m.readOnly ? ' (ro)' : ''}`).join('; '),
          ],
          ['Environment', c.env?.length ? `${c.env.length} variable${c.env.length === 1 ? '' : 's'}` : null],
          [
            'Env from',
            c.envFrom?.length ? `${c.envFrom.length} source${c.envFrom.length === 1 ? '' : 's'}` : null,
          ],
        ]}
      />
    </article>
  );
}
