/**
 * A watch response read as events, one JSON document per line, split however the chunks arrive.
 * Every chunk counts as a sign of life (bookmarks and partial lines included), so the informer can
 * tell a quiet watch from a dead one; a line that is not JSON ends the stream with an error.
 */
export interface WatchEvent {
  type: string;
  object: { metadata?: { resourceVersion?: string } } & Record<string, unknown>;
}

/**
 * The events of a watch response: one JSON document per line. `onData` is called for every chunk
 * received, bookmarks and partial lines included, so a caller can tell a quiet watch from a dead one.
 */
export async function* readWatchEvents(response: Response, onData: () => void): AsyncGenerator<WatchEvent> {
  const body = response.body;
  if (!body) return;
  const decoder = new TextDecoder();
  let pending = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    onData();
    pending += decoder.decode(chunk, { stream: true });
    let newline = pending.indexOf('\n');
    while (newline >= 0) {
      const line = pending.slice(0, newline).trim();
      pending = pending.slice(newline + 1);
      if (line !== '') yield parseEvent(line);
      newline = pending.indexOf('\n');
    }
  }
  pending += decoder.decode();
  if (pending.trim() !== '') yield parseEvent(pending.trim());
}

function parseEvent(line: string): WatchEvent {
  const parsed = JSON.parse(line) as Partial<WatchEvent>;
  if (typeof parsed?.type !== 'string' || typeof parsed.object !== 'object' || parsed.object === null) {
    throw new Error(`not a watch event: ${line.slice(0, 200)}`);
  }
  return parsed as WatchEvent;
}
