import type { SnapshotProgress } from '../../src-shared/contract/snapshot-models';

const WIDTH = 24;
const n = (x: number) => x.toLocaleString('en-US');

/** One status line: the counts so far and, once logs are being taken, a bar of the pods done. */
export function progressLine(context: string, p: SnapshotProgress): string {
  const head = `snapshot ${context}: ${n(p.objects)} objects, ${n(p.events)} events`;
  if (p.podLogsTotal === 0) return head;
  const filled = Math.round((p.podLogsDone / p.podLogsTotal) * WIDTH);
  const bar = `${'#'.repeat(filled)}${'-'.repeat(WIDTH - filled)}`;
  return `${head}, logs [${bar}] ${n(p.podLogsDone)}/${n(p.podLogsTotal)} pods`;
}

/**
 * Redraws the status line on a terminal every `everyMs`; on anything else (a pipe, a CI log) it
 * writes nothing until `stop`, which always leaves the last state on a line of its own.
 */
export function startProgress(
  stream: NodeJS.WriteStream,
  context: string,
  progress: SnapshotProgress,
  everyMs = 200,
): { stop(): void } {
  const tty = stream.isTTY === true;
  let shown = '';
  const draw = () => {
    const line = progressLine(context, progress);
    if (line === shown) return;
    shown = line;
    stream.write(`\r\x1b[2K${line}`);
  };
  const timer = tty ? setInterval(draw, everyMs) : undefined;
  timer?.unref();
  return {
    stop() {
      clearInterval(timer);
      if (tty) {
        draw();
        stream.write('\n');
      } else stream.write(`${progressLine(context, progress)}\n`);
    },
  };
}
