import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';

/**
 * The docs a reader opens must hold together: every relative link in README.md, CHANGELOG.md and
 * docs/**\/*.md points at a file or folder of the repository, every `#anchor` at a heading of its
 * target (GitHub's slugs), every image exists, nothing points outside the repository, and the
 * README stays a page (under 250 lines). Links inside code (fenced blocks, `spans`) are text, not
 * links. Absolute URLs are not fetched: the check runs offline.
 */
const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const README_MAX_LINES = 250;

/** README.md, CHANGELOG.md and every .md under docs/, as paths relative to `base`. */
function docFiles(base: string): string[] {
  const found = ['README.md', 'CHANGELOG.md'].filter((f) => existsSync(join(base, f)));
  const walk = (dir: string) => {
    for (const e of readdirSync(join(base, dir), { withFileTypes: true })) {
      const rel = join(dir, e.name);
      if (e.isDirectory()) walk(rel);
      else if (e.name.endsWith('.md')) found.push(rel);
    }
  };
  if (existsSync(join(base, 'docs'))) walk('docs');
  return found;
}

/** The text outside fenced code blocks, line by line (fenced lines become empty, keeping numbers). */
function proseLines(text: string): string[] {
  let fence: string | null = null;
  return text.split('\n').map((line) => {
    const marker = /^\s*(```+|~~~+)/.exec(line)?.[1];
    if (fence !== null) {
      if (marker?.startsWith(fence)) fence = null;
      return '';
    }
    if (marker) {
      fence = marker;
      return '';
    }
    return line;
  });
}

/** GitHub's heading anchor: lower case, punctuation dropped, each space a hyphen. */
function slugOf(heading: string): string {
  const text = heading
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/<[^>]+>/g, '')
    .trim()
    .toLowerCase();
  return text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
}

/** The anchors a markdown file offers: its headings' slugs (repeats numbered as GitHub does). */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of proseLines(text)) {
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = slugOf(heading);
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return anchors;
}

interface BrokenLink {
  file: string;
  line: number;
  target: string;
  reason: string;
}

/** Every broken relative link of the docs under `base`. */
function brokenLinks(base: string): BrokenLink[] {
  const broken: BrokenLink[] = [];
  const anchorCache = new Map<string, Set<string>>();
  const anchors = (path: string) => {
    let set = anchorCache.get(path);
    if (!set) {
      set = anchorsOf(readFileSync(path, 'utf8'));
      anchorCache.set(path, set);
    }
    return set;
  };
  for (const file of docFiles(base)) {
    const full = join(base, file);
    proseLines(readFileSync(full, 'utf8')).forEach((raw, i) => {
      const line = raw.replace(/(`+)[^`]*?\1/g, '');
      for (const m of line.matchAll(/\]\(\s*<?([^)\s>]*)>?(?:\s+"[^"]*")?\s*\)/g)) {
        const target = m[1] ?? '';
        const report = (reason: string) => broken.push({ file, line: i + 1, target, reason });
        if (target === '' || /^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
        const hash = target.indexOf('#');
        const pathPart = decodeURI(hash === -1 ? target : target.slice(0, hash));
        const anchor = hash === -1 ? null : decodeURIComponent(target.slice(hash + 1));
        const dest = pathPart === '' ? full : resolve(dirname(full), pathPart);
        const inside = relative(base, dest);
        if (inside.startsWith('..') || resolve(base, inside) !== dest) {
          report('points outside the repository');
          continue;
        }
        if (!existsSync(dest)) {
          report('no such file');
          continue;
        }
        if (anchor !== null && dest.endsWith('.md') && !anchors(dest).has(anchor)) report('no such heading');
      }
    });
  }
  return broken;
}

describe('the docs', () => {
  it('link only to files, folders, images and headings that exist in the repository', () => {
    const broken = brokenLinks(root).map((b) => `${b.file}:${b.line} ${b.target}: ${b.reason}`);
    expect(broken).toEqual([]);
  });

  it(`keep the README under ${README_MAX_LINES} lines`, () => {
    const lines = readFileSync(join(root, 'README.md'), 'utf8').split('\n').length;
    expect(lines).toBeLessThan(README_MAX_LINES);
  });
});

describe('the link check', () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  function tree(files: Record<string, string>): string {
    dir = mkdtempSync(join(tmpdir(), 'docs-links-'));
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    }
    return dir;
  }

  it('finds a missing file, a missing heading, a missing image and a path out of the repository', () => {
    const base = tree({
      'README.md': [
        '# Title',
        'See [guide](docs/guide.md), [gone](docs/gone.md), [a part](docs/guide.md#no-such-part).',
        '![shot](docs/shots/missing.png) and [spec](../shared/spec/x.md).',
      ].join('\n'),
      'docs/guide.md': '# Guide\n\n## A part\n',
    });
    expect(brokenLinks(base).map((b) => [b.file, b.line, b.target, b.reason])).toEqual([
      ['README.md', 2, 'docs/gone.md', 'no such file'],
      ['README.md', 2, 'docs/guide.md#no-such-part', 'no such heading'],
      ['README.md', 3, 'docs/shots/missing.png', 'no such file'],
      ['README.md', 3, '../shared/spec/x.md', 'points outside the repository'],
    ]);
  });

  it('accepts files, folders, headings (GitHub slugs, repeats numbered) and links of its own page', () => {
    const base = tree({
      'CHANGELOG.md': '# Changes\n\n## Same\n\n## Same\n\nSee [second](#same-1) and [docs](docs/).',
      'docs/a/b.md': [
        '# B',
        "## The browser's refresh cookie",
        '## `kinds` (resource_type, grp) — version 2',
        'Back to [changes](../../CHANGELOG.md#same), [cookie](#the-browsers-refresh-cookie),',
        '[kinds](#kinds-resource_type-grp--version-2) and [out](https://example.com/x).',
      ].join('\n'),
    });
    expect(brokenLinks(base)).toEqual([]);
  });

  it('reads links in code as text, not as links', () => {
    const base = tree({
      'README.md': ['# R', '`[x](missing.md)` is code.', '```', '[y](missing.md)', '```'].join('\n'),
    });
    expect(brokenLinks(base)).toEqual([]);
  });

  it('slugs a heading with code and punctuation as GitHub does', () => {
    expect(slugOf('API reference (`/v1`)')).toBe('api-reference-v1');
  });
});
