import { createServer, type RequestListener } from 'node:http';
import type { AddressInfo } from 'node:net';
import { kubeconfigYaml } from '@skiff/kube-simulator';
import { KubeClient } from '../kube/kube-client';
import { contextsFromYaml } from '../kube/kubeconfig';

/** A real KubeClient for a test's own handler on loopback, where the simulator cannot show what a test needs (each query sent, a hang-up). */
export interface LocalApiserver {
  client: KubeClient;
  /** Closes the client, then the server and every connection still open on it. */
  close(): Promise<void>;
}

export async function localApiserver(handle: RequestListener): Promise<LocalApiserver> {
  const server = createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const client = new KubeClient(
    contextsFromYaml(kubeconfigYaml({ server: url, user: { token: 't' } }))[0]!.config,
    url,
  );
  return {
    client,
    async close() {
      await client.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
