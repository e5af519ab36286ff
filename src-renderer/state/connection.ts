import { type ApiClient, type Connection, connect, type SessionEnd } from '../api';

/**
 * The one connection of this window. Created on first use so tests can stub `window.skiff`
 * before anything connects; session ends are forwarded to whoever registered (the auth store).
 */
let connection: Connection | null = null;
let endListener: (end: SessionEnd) => void = () => {};

export function getConnection(): Connection {
  connection ??= connect((end) => endListener(end));
  return connection;
}

export function api(): ApiClient {
  return getConnection().client;
}

export function onSessionEnded(listener: (end: SessionEnd) => void): void {
  endListener = listener;
}
