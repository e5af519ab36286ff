import {
  type LogStreamBridge,
  type LogStreamDown,
  type LogStreamHandle,
  type LogStreamOpen,
  type LogStreamUp,
  MAX_LOG_CREDIT,
  parseDown,
} from '../src-shared/ipc/log-stream';

interface PortPair {
  port1: MessagePort;
  port2: MessagePort;
}

/**
 * The preload end of the log stream channel. The page cannot receive a MessagePort through
 * contextBridge, so the preload keeps it and hands the page callbacks: messages are validated
 * here before the page sees them, and credit is forwarded in whole, bounded grants.
 */
export function buildLogStreamBridge(
  post: (request: LogStreamOpen, port: MessagePort) => void,
  channel: () => PortPair = () => new MessageChannel(),
): LogStreamBridge {
  return Object.freeze({
    open(request: LogStreamOpen, onMessage: (message: LogStreamDown) => void): LogStreamHandle {
      const { port1, port2 } = channel();
      let done = false;
      const send = (m: LogStreamUp) => {
        if (!done) port1.postMessage(m);
      };
      port1.onmessage = (event: MessageEvent) => {
        const message = parseDown(event.data);
        if (!message || done) return;
        if (message.type === 'end' || message.type === 'error') {
          done = true;
          port1.close();
        }
        onMessage(message);
      };
      port1.start();
      post({ params: { ...request.params }, query: { ...request.query }, credit: request.credit }, port2);
      return Object.freeze({
        credit: (n: number) => {
          if (Number.isInteger(n) && n > 0) send({ type: 'credit', n: Math.min(n, MAX_LOG_CREDIT) });
        },
        cancel: () => {
          send({ type: 'cancel' });
          done = true;
          port1.close();
        },
      });
    },
  });
}
