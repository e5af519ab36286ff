import { beforeEach, describe, expect, it } from 'vitest';
import {
  type ApiDocument,
  escapeHtml,
  prose,
  renderDocsPage,
  schemaHtml,
  shortPath,
  typeText,
} from './docs-page';
import { buildOpenApiDocument } from './document';

/** The page rendered from small documents, and from the service's own (every operation shown). */

const doc: ApiDocument = {
  info: {
    title: 'Skiff API',
    version: '9.9.9',
    description: 'Lists are paged with `limit` & <b>offset</b>.',
  },
  tags: [{ name: 'Events' }, { name: 'Empty' }, { name: 'Auth' }],
  paths: {
    '/v1/auth/login': {
      post: {
        operationId: 'login',
        summary: 'Log in.',
        tags: ['Auth'],
        security: [],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Login' } } },
        },
        responses: {
          '200': { description: 'Tokens.', content: { 'application/json': { schema: { type: 'string' } } } },
          '401': {
            description: 'Wrong. Codes: invalid_credentials.',
            content: { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } },
          },
        },
      },
    },
    '/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-events': {
      get: {
        operationId: 'listEvents',
        summary: 'Events.',
        description: 'Newest first.',
        tags: ['Events'],
        security: [{ bearerAuth: [] }, { apiKeyAuth: [] }],
        parameters: [
          { name: 'clusterId', in: 'path', required: true, schema: { type: 'string' } },
          { name: 'since', in: 'query', description: 'A `duration`.', schema: { type: 'string' } },
          { name: 'limit', in: 'query', schema: { type: 'integer', minimum: 1, description: 'Page size.' } },
        ],
        responses: { '200': { description: 'A page.' } },
      },
      delete: { operationId: 'x', security: [{}, { bearerAuth: [] }], responses: {} },
    },
    '/v1/health': {
      get: {
        operationId: 'health',
        summary: 'Health.',
        responses: { '200': { description: 'ok' } },
        requestBody: {
          content: {
            'text/plain': { schema: { type: 'string' } },
            'text/csv': { schema: { type: 'string' } },
          },
        },
      },
    },
  },
  components: {
    schemas: {
      Login: {
        type: 'object',
        description: 'Who logs in.',
        required: ['username'],
        properties: {
          username: { type: 'string', description: 'A name.' },
          password: { type: 'string' },
          nested: { type: 'object', properties: { deep: { type: 'integer' } }, description: 'inner' },
        },
      },
      Problem: { type: 'object', properties: { code: { type: 'string' } }, required: ['code'] },
    },
  },
};

describe('text', () => {
  it('escapes every character HTML gives a meaning', () => {
    expect(escapeHtml(`<a href="x" title='y'>&</a>`)).toBe(
      '&#60;a href=&#34;x&#34; title=&#39;y&#39;&#62;&#38;&#60;/a&#62;',
    );
  });

  it('turns `code` spans into <code> and nothing else', () => {
    expect(prose('use `limit` and <i>x</i> *y*')).toBe(
      'use <code>limit</code> and &#60;i&#62;x&#60;/i&#62; *y*',
    );
    expect(prose(undefined)).toBe('');
  });

  it('shortens a long path to its last three segments, and leaves a short one whole', () => {
    expect(shortPath('/v1/workspaces/{w}/observability/{c}/kubernetes-events')).toBe(
      '…/observability/{c}/kubernetes-events',
    );
    expect(shortPath('/v1/workspaces/{w}/observability/{c}/relations/{type}/{name}')).toBe(
      '…/relations/{type}/{name}',
    );
    expect(shortPath('/v1/auth/sessions/{id}')).toBe('/v1/auth/sessions/{id}');
    expect(shortPath('/v1/a/b/c/d')).toBe('…/b/c/d');
  });
});

describe('a schema’s type', () => {
  it('names every kind of schema in one line', () => {
    expect(typeText(undefined)).toBe('any');
    expect(typeText({})).toBe('any');
    expect(typeText({ $ref: '#/components/schemas/Pod' })).toBe('<a href="#schema-Pod">Pod</a>');
    expect(typeText({ const: 'a"b' })).toBe('<code>&#34;a\\&#34;b&#34;</code>');
    expect(typeText({ enum: ['a', 1] })).toBe('<code>&#34;a&#34;</code> | <code>1</code>');
    expect(typeText({ anyOf: [{ type: 'string' }, { type: 'null' }] })).toBe('string | null');
    expect(typeText({ oneOf: [{ type: 'integer' }, { type: 'boolean' }] })).toBe('integer | boolean');
    expect(typeText({ allOf: [{ $ref: '#/x/A' }, { type: 'object' }] })).toBe(
      '<a href="#schema-A">A</a> and object',
    );
    expect(typeText({ type: 'array', items: { type: 'string' } })).toBe('string[]');
    expect(typeText({ type: 'array' })).toBe('any[]');
    expect(typeText({ type: 'object', additionalProperties: { type: 'number' } })).toBe('map of number');
    expect(typeText({ type: 'object', additionalProperties: true })).toBe('object');
    expect(typeText({ type: 'string', additionalProperties: { type: 'number' } })).toBe('string');
    expect(typeText({ type: ['string', 'null'] })).toBe('string | null');
  });

  it('adds its format, range, length and pattern', () => {
    expect(typeText({ type: 'string', format: 'date-time' })).toBe('string (date-time)');
    expect(typeText({ type: 'integer', minimum: 1, maximum: 1000 })).toBe('integer (1–1000)');
    expect(typeText({ type: 'integer', minimum: 0 })).toBe('integer (0–…)');
    expect(typeText({ type: 'integer', maximum: 9 })).toBe('integer (…–9)');
    expect(typeText({ type: 'string', maxLength: 63, pattern: '^[a-z]<$' })).toBe(
      'string (at most 63 characters) matching <code>^[a-z]&#60;$</code>',
    );
  });
});

describe('a schema’s properties', () => {
  it('are a definition list, exactly: optional ones marked, nested objects within, descriptions once', () => {
    expect(
      schemaHtml({
        type: 'object',
        required: ['a'],
        properties: {
          a: { type: 'string', description: 'An `a`.' },
          b: { type: 'object', properties: { c: { type: 'integer' } } },
        },
      }),
    ).toBe(
      '<dl class="props"><dt><code>a</code></dt><dd><span class="type">string</span> — An <code>a</code>.</dd>' +
        '<dt><code>b</code> <span class="optional">optional</span></dt><dd><dl class="props">' +
        '<dt><code>c</code> <span class="optional">optional</span></dt><dd><span class="type">integer</span></dd></dl></dd></dl>',
    );
  });

  it('are listed with their types, which are optional, and their descriptions', () => {
    const html = schemaHtml(doc.components!.schemas!.Login);
    expect(html.startsWith('<p>Who logs in.</p><dl class="props">')).toBe(true);
    expect(html).toContain(
      '<dt><code>username</code></dt><dd><span class="type">string</span> — A name.</dd>',
    );
    expect(html).toContain(
      '<dt><code>password</code> <span class="optional">optional</span></dt><dd><span class="type">string</span></dd>',
    );
    // A nested object is listed within, its description given once, inside.
    expect(html).toContain('<dd><p>inner</p><dl class="props"><dt><code>deep</code>');
    expect(html).not.toContain('— inner');
  });

  it('stop at a depth, and a reference or a scalar is its type with its description', () => {
    let deep: Record<string, unknown> = { type: 'object', properties: { leaf: { type: 'string' } } };
    for (let i = 0; i < 5; i++) deep = { type: 'object', properties: { next: deep } };
    const html = schemaHtml(deep);
    expect(html.match(/<dl/g)).toHaveLength(3);
    expect(html).toContain('<p class="type">object</p>');
    expect(html).not.toContain('leaf');
    expect(schemaHtml({ $ref: '#/c/A', properties: { a: {} } })).toBe(
      '<p class="type"><a href="#schema-A">A</a></p>',
    );
    expect(schemaHtml({ type: 'string', description: 'A `name`.' })).toBe(
      '<p class="type">string</p><p>A <code>name</code>.</p>',
    );
    expect(schemaHtml(undefined)).toBe('<p class="type">any</p>');
  });
});

describe('the page', () => {
  // Rendered inside each test: the mutation run counts only what a test itself executes.
  let html = '';
  beforeEach(() => {
    html = renderDocsPage(doc, '/v1/openapi.json');
  });

  it('has the title, version, description and a link to the document', () => {
    expect(html).toContain('<title>Skiff API reference</title>');
    expect(html).toContain('<h1>Skiff API reference <span class="version">9.9.9</span></h1>');
    expect(html).toContain(
      '<p>Lists are paged with <code>limit</code> &#38; &#60;b&#62;offset&#60;/b&#62;.</p>',
    );
    expect(html).toContain('<a href="/v1/openapi.json">/v1/openapi.json</a>');
    expect(html).toContain(
      'Every error answer is <code>application/problem+json</code> (RFC 9457), of the schema <a href="#schema-Problem">Problem</a>.',
    );
    expect(html).not.toMatch(/<script/i);
  });

  it('groups operations by tag in the document’s order, drops empty tags, and puts untagged ones under Other', () => {
    const headings = [...html.matchAll(/<h2 id="[^"]+">([^<]+)<\/h2>/g)].map((m) => m[1]);
    expect(headings).toEqual(['Events', 'Auth', 'Other', 'Schemas']);
    const nav = html.slice(html.indexOf('<nav'), html.indexOf('</nav>'));
    expect(nav).toContain(
      '<a href="#op-listEvents" title="/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-events"><span class="method get">GET</span> …/observability/{clusterId}/kubernetes-events</a>',
    );
    expect(nav).toContain('<a href="#tag-Events">Events</a>');
    expect(nav).toContain('<a href="#schemas">Schemas</a>');
  });

  it('shows each operation: method, path, summary, credential, parameters, body and answers', () => {
    const op = html.slice(
      html.indexOf('<section class="op" id="op-listEvents"'),
      html.indexOf('</section>', html.indexOf('id="op-listEvents"')),
    );
    expect(op).toContain(
      'data-method="get" data-path="/v1/workspaces/{workspaceId}/observability/{clusterId}/kubernetes-events" aria-labelledby="op-listEvents-h"',
    );
    expect(op).toContain('<h3 id="op-listEvents-h"><span class="method get">GET</span> <code class="path">');
    expect(op).toContain('<p>Events.</p><p>Newest first.</p>');
    expect(op).toContain('Credential: access token (Bearer) or API key (X-API-Key)<');
    expect(op).toContain(
      '<tr data-param-name="clusterId"><th scope="row"><code>clusterId</code></th><td>path</td><td>string</td><td></td></tr>',
    );
    expect(op).toContain(
      '<tr data-param-name="since"><th scope="row"><code>since</code> <span class="optional">optional</span></th><td>query</td><td>string</td><td>A <code>duration</code>.</td></tr>',
    );
    // A parameter without its own description shows its schema's.
    expect(op).toContain('<td>integer (1–…)</td><td>Page size.</td>');
    expect(op).toContain('<tr><th scope="row">200</th><td><p>A page.</p></td></tr>');
    expect(op).not.toContain('Request body');

    const login = html.slice(
      html.indexOf('id="op-login"'),
      html.indexOf('</section>', html.indexOf('id="op-login"')),
    );
    expect(login).toContain('Credential: none (public)');
    expect(login).toContain(
      '<h4>Request body</h4><p class="media"><code>application/json</code></p><p class="type"><a href="#schema-Login">Login</a></p>',
    );
    expect(login).toContain('<p class="media"><code>application/json</code></p><p class="type">string</p>');
    // A problem answer is its description, which names the codes; the page names its media type once.
    expect(login).toContain(
      '<tr><th scope="row">401</th><td><p>Wrong. Codes: invalid_credentials.</p></td></tr>',
    );

    expect(html).toContain('<h4>Request body (optional)</h4><p class="media"><code>text/plain</code></p>');
    expect(html).toContain('Credential: access token (Bearer), optional<');
    expect(html).toContain('id="op-x"');
  });

  it('puts its pieces side by side with nothing between them', () => {
    // Operations of a tag, tags, schemas, side-list entries and media types follow each other directly.
    expect(html).toContain('</section><section class="op" id="op-health"');
    expect(html).toContain(
      '</section><section aria-labelledby="tag-Auth"><h2 id="tag-Auth">Auth</h2><section class="op"',
    );
    expect(html).toContain('</section><section class="schema" id="schema-Problem"');
    expect(html).toMatch(/<\/a><\/li><li><a href="#op-health"/);
    expect(html).toContain('</ul></li><li><a href="#tag-Auth">Auth</a><ul><li>');
    expect(html).toContain(
      '<p class="media"><code>text/plain</code></p><p class="type">string</p><p class="media"><code>text/csv</code></p>',
    );
    // An operation with neither parameters nor body: its credential, then its answers, then its end.
    expect(html).toContain(
      'Credential: access token (Bearer), optional</p><h4>Responses</h4><table class="responses"><thead><tr><th scope="col">Status</th><th scope="col">Answer</th></tr></thead><tbody></tbody></table></section>',
    );
    expect(html).toContain(
      '<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th><th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody><tr data-param-name="clusterId">',
    );
    expect(html).toContain(
      '<p>Log in.</p><p class="credential">Credential: none (public)</p><h4>Request body</h4>',
    );
  });

  it('lists the schemas, each its own section a reference links to', () => {
    expect(html).toContain(
      '<section class="schema" id="schema-Login" aria-labelledby="schema-Login-h"><h3 id="schema-Login-h">Login</h3>',
    );
  });

  it('names an operation without an id by its method and path', () => {
    const page = renderDocsPage({ paths: { '/v1/a b': { get: { responses: {} } } } }, '/d');
    expect(page).toContain('id="op-get--v1-a-b"');
    expect(page).toContain('<title>Skiff API reference</title>');
    expect(page).toContain('<h1>API reference <span class="version"></span></h1>');
  });
});

describe('the service’s own document', () => {
  it('shows every operation, once, each with its parameters', () => {
    const document = buildOpenApiDocument() as unknown as ApiDocument;
    const html = renderDocsPage(document, '/v1/openapi.json');
    let operations = 0;
    for (const [path, item] of Object.entries(document.paths ?? {})) {
      for (const [method, op] of Object.entries(item)) {
        operations++;
        expect(
          html.split(`data-method="${method}" data-path="${escapeHtml(path)}"`),
          `${method} ${path}`,
        ).toHaveLength(2);
        for (const p of op.parameters ?? [])
          expect(html).toContain(`data-param-name="${escapeHtml(p.name)}"`);
      }
    }
    expect(operations).toBeGreaterThan(30);
  });
});
