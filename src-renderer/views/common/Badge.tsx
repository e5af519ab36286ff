import type { Tone } from '../../kube/meta';

export function Badge({ tone, children, title }: { tone: Tone; children: string; title?: string }) {
  return (
    <span className={`badge badge-${tone}`} title={title}>
      {children}
    </span>
  );
}

/** A condition status as a badge: healthy values green, the others by how bad they are for this type. */
export function ConditionBadge({ status, healthy }: { status: string; healthy: boolean }) {
  return <Badge tone={healthy ? 'ok' : status === 'Unknown' ? 'warn' : 'bad'}>{status}</Badge>;
}
