import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:https';
import { expect } from '@playwright/test';
import { parse } from 'yaml';
import type { Service } from './fixtures';

/**
 * The demo cluster's own Kubernetes API, as kubectl reaches it through the `--demo-kubeconfig` the
 * e2e service writes (fixtures.ts): a spec edits the cluster with it (`kubectl replace`) and then
 * checks what Skiff shows. Rules: loopback only, one request at a time, each bounded in time; an
 * answer other than 2xx fails the test with the apiserver's Status.
 */

interface Kubeconfig {
  clusters: Array<{ cluster: { server: string; 'certificate-authority-data': string } }>;
  users: Array<{ user: { 'client-certificate-data': string; 'client-key-data': string } }>;
}

const b64 = (s: string) => Buffer.from(s, 'base64');

export interface DemoKube {
  get<T = Record<string, unknown>>(path: string): Promise<T>;
  put<T = Record<string, unknown>>(path: string, body: unknown): Promise<T>;
  post<T = Record<string, unknown>>(path: string, body: unknown): Promise<T>;
  delete<T = Record<string, unknown>>(path: string): Promise<T>;
}

export async function demoKube(service: Service): Promise<DemoKube> {
  const path = service.demoKubeconfig;
  if (!path) throw new Error('this service was started without --demo-kubeconfig (see fixtures.ts)');
  // serve writes the file once it listens; wait for it rather than for a time.
  await expect.poll(() => existsSync(path), { timeout: 30_000 }).toBe(true);
  const config = parse(readFileSync(path, 'utf8')) as Kubeconfig;
  const { server, 'certificate-authority-data': ca } = config.clusters[0]!.cluster;
  const user = config.users[0]!.user;
  const tls = {
    ca: b64(ca),
    cert: b64(user['client-certificate-data']),
    key: b64(user['client-key-data']),
  };
  const call = <T>(method: string, path: string, body?: unknown) =>
    new Promise<T>((resolve, reject) => {
      const text = body === undefined ? undefined : JSON.stringify(body);
      const req = request(
        new URL(path, server),
        {
          method,
          ...tls,
          timeout: 15_000,
          headers: { accept: 'application/json', ...(text ? { 'content-type': 'application/json' } : {}) },
        },
        (res) => {
          const chunks: Buffer[] = [];
          res.on('data', (c: Buffer) => chunks.push(c));
          res.on('end', () => {
            const answer = Buffer.concat(chunks).toString('utf8');
            if ((res.statusCode ?? 0) >= 300)
              reject(new Error(`${method} ${path}: ${res.statusCode} ${answer}`));
            else resolve(JSON.parse(answer) as T);
          });
        },
      );
      req.on('timeout', () => req.destroy(new Error(`${method} ${path}: no answer in 15 s`)));
      req.on('error', reject);
      req.end(text);
    });
  return {
    get: (path) => call('GET', path),
    put: (path, body) => call('PUT', path, body),
    post: (path, body) => call('POST', path, body),
    delete: (path) => call('DELETE', path),
  };
}
