/**
 * The Containerfile, read as text: no image can be built on these machines (no container daemon,
 * no base images), so what can be checked is that the file agrees with the project and with
 * deploy/: the Node it pins is the project's Node, it runs the entry the service build writes with
 * the flags `npm run serve` uses, as the numeric user the Deployment runs as, on the port it
 * probes, and the build context leaves out the host's installs and builds.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { SERVICE_NODE_FLAGS } from '../scripts/serve.mjs';
import type { KubeObject } from './manifest-checks.test-support';

const ROOT = join(import.meta.dirname, '..');
const read = (p: string) => readFileSync(join(ROOT, p), 'utf8');

/** The instructions, continuation lines joined and comments dropped: [keyword, rest]. */
function instructions(text: string): [string, string][] {
  return text
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((l) => {
      const [word, ...rest] = l.split(/\s+/);
      return [word!.toUpperCase(), rest.join(' ')];
    });
}

const steps = instructions(read('Containerfile'));
const all = (word: string) => steps.filter(([w]) => w === word).map(([, rest]) => rest);
const deployment = parse(read('deploy/base/deployment.yaml')) as KubeObject;
const pod = deployment.spec!.template!.spec;
const container = pod.containers[0]!;

describe('Containerfile', () => {
  it("builds every stage on the official Node image at the project's own Node version", () => {
    const pkg = JSON.parse(read('package.json')) as { devDependencies: Record<string, string> };
    expect(all('ARG')).toContain(`NODE_IMAGE=node:${pkg.devDependencies.node}-bookworm-slim`);
    const froms = all('FROM');
    expect(froms.length).toBeGreaterThanOrEqual(2);
    for (const f of froms) expect(f).toMatch(/^\$\{NODE_IMAGE\} AS \w+$/);
  });

  it('builds the service and the web UI, and copies only the build and production dependencies', () => {
    expect(all('RUN')).toEqual(expect.arrayContaining(['npm ci --no-audit --no-fund', 'npm run build']));
    expect(all('RUN').some((r) => r.startsWith('npm ci --omit=dev'))).toBe(true);
    const copied = all('COPY')
      .filter((c) => c.startsWith('--from='))
      .map((c) => c.split(/\s+/)[1]);
    expect(copied.sort()).toEqual([
      '/app/node_modules',
      '/src/out/renderer',
      '/src/out/service',
      '/src/package.json',
    ]);
    // The service build writes its `serve` input as out/service/serve.js.
    const viteConfig = read('vite.service.config.ts');
    expect(viteConfig).toMatch(/outDir: 'out\/service'/);
    expect(viteConfig).toMatch(/serve: resolve\(import\.meta\.dirname, 'src-main\/cli\/serve\.ts'\)/);
    expect(viteConfig).toMatch(/entryFileNames: '\[name\]\.js'/);
  });

  it('runs out/service/serve.js with the flags npm run serve uses', () => {
    const entry = JSON.parse(all('ENTRYPOINT').at(-1) ?? '[]') as string[];
    const node = entry.indexOf('node');
    expect(node).toBeGreaterThanOrEqual(0);
    expect(entry.slice(node + 1)).toEqual([...SERVICE_NODE_FLAGS, 'out/service/serve.js']);
  });

  it('runs as the numeric non-root user the Deployment names, on the port it probes', () => {
    const user = all('USER').at(-1) ?? '';
    expect(user).toMatch(/^\d+:\d+$/);
    const [uid, gid] = user.split(':').map(Number);
    expect(uid).toBeGreaterThan(0);
    expect(uid).toBe(pod.securityContext?.runAsUser);
    expect(gid).toBe(pod.securityContext?.runAsGroup);
    expect(all('EXPOSE')).toEqual([String(container.ports?.[0]?.containerPort)]);
  });

  it("keeps the host's installs, builds and git history out of the build context", () => {
    const ignored = read('.dockerignore')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '' && !l.startsWith('#'));
    expect(ignored).toEqual(expect.arrayContaining(['.git', 'node_modules', '**/node_modules', 'out']));
  });
});
