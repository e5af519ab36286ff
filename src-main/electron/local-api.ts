import type { Server } from 'node:http';
import type { AppSettings } from '../../src-shared/contract/settings-models';
import type { Service } from '../service/index';
import type { Logger } from '../service/logger';
import type { DesktopStore } from './desktop-store';

/**
 * The local /v1 HTTP API for scripts, on loopback. On by default; Settings can switch it off or move
 * it to another port. The window itself never needs it: it talks over IPC.
 */
export class LocalApi {
  private server: Server | null = null;
  private url: string | null = null;

  constructor(
    private readonly service: Service,
    private readonly store: DesktopStore,
    private readonly logger: Logger,
  ) {}

  async apply(): Promise<void> {
    const { enabled, port } = this.store.read().localApi;
    await this.stop();
    if (!enabled) return;
    try {
      const { url, server } = await this.service.listen(port, '127.0.0.1');
      this.server = server;
      this.url = url;
      this.logger.info({ url }, 'local API listening');
    } catch (err) {
      // A taken port must not keep the app from starting; Settings shows the API as off.
      this.logger.warn({ err: String(err), port }, 'local API could not listen');
    }
  }

  async set(patch: { enabled?: boolean; port?: number }): Promise<void> {
    this.store.update((s) => ({ ...s, localApi: { ...s.localApi, ...patch } }));
    await this.apply();
  }

  describe(): AppSettings['localApi'] {
    const { enabled, port } = this.store.read().localApi;
    return { enabled: enabled && this.server !== null, port, url: this.url, editable: true };
  }

  async stop(): Promise<void> {
    const server = this.server;
    this.server = null;
    this.url = null;
    if (!server) return;
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });
  }
}
