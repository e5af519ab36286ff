import { useState } from 'react';
import type { NodeUsage, PodUsage } from '../../../src-shared/contract/usage-operations';
import type { Scope } from '../../api/queries';
import { nodeUsage, podUsage } from '../../api/usage';
import { usePolling } from '../../hooks/usePolling';
import { formatBytes, formatCpu } from '../../kube/format';
import { api } from '../../state/connection';
import { ProblemNotice } from '../common/Problem';
import { Section } from '../common/Section';
import { UsageChart } from './UsageChart';
import { type ChartModel, nodeChart, podChart, type Resource } from './usage-series';
import './usage.css';

/**
 * The pod and node details' "Usage over time" section (issue 27 §2): CPU and memory as Skiff
 * recorded them, over a range the user picks (the last hour by default, up to the 7 days kept),
 * refreshed while shown. A cluster Skiff does not sample (an opened snapshot without samples,
 * `--usage-interval off`, no metrics-server) says so in words instead of drawing empty charts.
 */

const RANGES = [
  { since: '1h', label: '1 hour' },
  { since: '6h', label: '6 hours' },
  { since: '24h', label: '24 hours' },
  { since: '7d', label: '7 days' },
] as const;

const REFRESH_MS = 30_000;

type Subject = { kind: 'pod'; namespace: string; name: string } | { kind: 'node'; name: string };

const FORMAT: Record<Resource, (v: number) => string> = { cpu: formatCpu, memory: formatBytes };

export function UsageCharts({ scope, subject }: { scope: Scope; subject: Subject }) {
  const [since, setSince] = useState<string>('1h');
  const where = subject.kind === 'pod' ? `${subject.namespace}/${subject.name}` : subject.name;
  const key = `${scope.workspaceId}/${scope.clusterId}/usage/${subject.kind}/${where}/${since}`;
  const polled = usePolling<PodUsage | NodeUsage>(
    key,
    (signal) =>
      subject.kind === 'pod'
        ? podUsage(api(), scope, subject, since, signal)
        : nodeUsage(api(), scope, subject.name, since, signal),
    { intervalMs: REFRESH_MS, keepPrevious: true },
  );
  const chart = (resource: Resource): ChartModel | undefined => {
    const d = polled.data;
    if (!d) return undefined;
    return subject.kind === 'pod' ? podChart(d as PodUsage, resource) : nodeChart(d as NodeUsage, resource);
  };
  const cpu = chart('cpu');
  const memory = chart('memory');
  const empty = polled.data !== undefined && polled.data.points.length === 0;
  return (
    <Section
      id="usage-history"
      title="Usage over time"
      actions={
        <label className="usage-range">
          <span className="sr-only">Time range</span>
          <select value={since} onChange={(e) => setSince(e.target.value)}>
            {RANGES.map((r) => (
              <option key={r.since} value={r.since}>
                Last {r.label}
              </option>
            ))}
          </select>
        </label>
      }
    >
      <div data-testid="usage-history">
        {polled.error && <ProblemNotice error={polled.error} what="the recorded usage" />}
        {polled.loading && !polled.data && <p className="muted">Loading recorded usage…</p>}
        {empty && (
          <p className="muted" data-testid="usage-empty">
            No usage recorded in this range. Skiff samples metrics.k8s.io every 30 seconds (
            <code>--usage-interval</code>) for clusters it records, once metrics-server answers.
          </p>
        )}
        {cpu && memory && !empty && (
          <div className="usage-charts">
            <UsageChart title="CPU" model={cpu} format={FORMAT.cpu} testId="usage-cpu" />
            <UsageChart title="Memory" model={memory} format={FORMAT.memory} testId="usage-memory" />
          </div>
        )}
      </div>
    </Section>
  );
}
