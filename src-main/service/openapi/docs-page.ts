/**
 * The API reference page (/v1/docs), rendered on the service from the OpenAPI document into one
 * static HTML page: no script, no framework, nothing fetched after it, so it shows as soon as it
 * arrives and works offline under the service's CSP. Rules:
 * - Everything from the document is escaped; descriptions are plain text in which `code` spans
 *   become <code>, and nothing else is interpreted.
 * - Accessible by construction: landmarks (banner, navigation, main), headings in order
 *   (h1 page, h2 tag, h3 operation or schema, h4 part), tables with header cells, no control
 *   inside another, colours with at least 4.5:1 contrast in the light and the dark scheme.
 * - A `$ref` is a link to its schema, never expanded in place, so the page grows with the
 *   document, not with how often a schema is used. Inline schemas are shown to a bounded depth.
 */

type Json = Record<string, unknown>;

interface Operation {
  operationId?: string;
  summary?: string;
  description?: string;
  tags?: string[];
  security?: Json[];
  parameters?: Parameter[];
  requestBody?: { required?: boolean; content?: Record<string, { schema?: Json }> };
  responses?: Record<string, { description?: string; content?: Record<string, { schema?: Json }> }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Json;
}

export interface ApiDocument {
  info?: { title?: string; version?: string; description?: string };
  tags?: { name: string }[];
  paths?: Record<string, Record<string, Operation>>;
  components?: { schemas?: Record<string, Json> };
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'];
const PROBLEM_TYPE = 'application/problem+json';
/** Inline objects nested deeper than this are named "object", not listed. */
const MAX_DEPTH = 3;

export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Plain text with `code` spans. */
export const prose = (text: string | undefined): string =>
  escapeHtml(text ?? '').replace(/`([^`]+)`/g, '<code>$1</code>');

const anchor = (kind: 'op' | 'tag' | 'schema', name: string) =>
  `${kind}-${name.replace(/[^A-Za-z0-9_-]/g, '-')}`;

const refName = (ref: string) => ref.slice(ref.lastIndexOf('/') + 1);

/** A long path by its last three segments, for the side list; the operation shows it whole. */
export function shortPath(path: string): string {
  const segments = path.split('/').filter(Boolean);
  return segments.length > 4 ? `…/${segments.slice(-3).join('/')}` : path;
}

/** One line naming a schema's type: `string`, `Pod[]`, `"a" | "b"`, `integer 1–1000`… */
export function typeText(schema: Json | undefined): string {
  if (!schema) return 'any';
  if (typeof schema.$ref === 'string') {
    const name = refName(schema.$ref);
    return `<a href="#${anchor('schema', name)}">${escapeHtml(name)}</a>`;
  }
  if ('const' in schema) return `<code>${escapeHtml(JSON.stringify(schema.const))}</code>`;
  if (Array.isArray(schema.enum))
    return schema.enum.map((v) => `<code>${escapeHtml(JSON.stringify(v))}</code>`).join(' | ');
  for (const key of ['anyOf', 'oneOf', 'allOf'] as const) {
    const parts = schema[key];
    if (Array.isArray(parts))
      return parts.map((p) => typeText(p as Json)).join(key === 'allOf' ? ' and ' : ' | ');
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type ?? 'any'];
  const shown = types.map((t) => {
    if (t === 'array') return `${typeText(schema.items as Json | undefined)}[]`;
    if (t === 'object' && schema.additionalProperties && typeof schema.additionalProperties === 'object')
      return `map of ${typeText(schema.additionalProperties as Json)}`;
    return escapeHtml(String(t));
  });
  const facts: string[] = [];
  if (typeof schema.format === 'string') facts.push(schema.format);
  if (schema.minimum !== undefined || schema.maximum !== undefined)
    facts.push(`${schema.minimum ?? '…'}–${schema.maximum ?? '…'}`);
  if (schema.maxLength !== undefined) facts.push(`at most ${schema.maxLength} characters`);
  const pattern =
    typeof schema.pattern === 'string' ? ` matching <code>${escapeHtml(schema.pattern)}</code>` : '';
  return `${shown.join(' | ')}${facts.length > 0 ? ` (${escapeHtml(facts.join(', '))})` : ''}${pattern}`;
}

/** An object's properties as a definition list, nested ones within, to MAX_DEPTH. */
export function schemaHtml(schema: Json | undefined, depth = 0): string {
  const properties = schema?.properties as Record<string, Json> | undefined;
  const type = `<p class="type">${typeText(schema)}</p>`;
  if (!properties || typeof schema?.$ref === 'string') {
    const description = typeof schema?.description === 'string' ? `<p>${prose(schema.description)}</p>` : '';
    return `${type}${description}`;
  }
  if (depth >= MAX_DEPTH) return '<p class="type">object</p>';
  // Set(undefined) is empty: no `required` list, every property optional.
  const required = new Set(schema!.required as string[] | undefined);
  const rows = Object.entries(properties).map(([name, prop]) => {
    const nested = prop.properties
      ? schemaHtml(prop, depth + 1)
      : `<span class="type">${typeText(prop)}</span>`;
    const description = typeof prop.description === 'string' ? ` — ${prose(prop.description)}` : '';
    const mark = required.has(name) ? '' : ' <span class="optional">optional</span>';
    return `<dt><code>${escapeHtml(name)}</code>${mark}</dt><dd>${nested}${prop.properties ? '' : description}</dd>`;
  });
  const description = typeof schema!.description === 'string' ? `<p>${prose(schema!.description)}</p>` : '';
  return `${description}<dl class="props">${rows.join('')}</dl>`;
}

function credentialText(security: Json[] | undefined): string {
  const names = (security ?? []).map((s) => Object.keys(s));
  if (names.length === 0) return 'none (public)';
  const kinds = names
    .flat()
    .map((n) => (n === 'apiKeyAuth' ? 'API key (X-API-Key)' : 'access token (Bearer)'));
  const optional = names.some((n) => n.length === 0);
  return `${[...new Set(kinds)].join(' or ')}${optional ? ', optional' : ''}`;
}

function parametersHtml(parameters: Parameter[] | undefined): string {
  if (!parameters || parameters.length === 0) return '';
  const rows = parameters.map(
    (p) =>
      `<tr data-param-name="${escapeHtml(p.name)}"><th scope="row"><code>${escapeHtml(p.name)}</code>${p.required ? '' : ' <span class="optional">optional</span>'}</th>` +
      `<td>${escapeHtml(p.in)}</td><td>${typeText(p.schema)}</td><td>${prose(p.description ?? (p.schema?.description as string | undefined))}</td></tr>`,
  );
  return (
    '<h4>Parameters</h4><table><thead><tr><th scope="col">Name</th><th scope="col">In</th>' +
    `<th scope="col">Type</th><th scope="col">Description</th></tr></thead><tbody>${rows.join('')}</tbody></table>`
  );
}

function contentHtml(content: Record<string, { schema?: Json }> | undefined): string {
  // Problem answers all share the Problem schema (the page says so once); their description names the codes.
  return Object.entries(content ?? {})
    .filter(([type]) => type !== PROBLEM_TYPE)
    .map(([type, { schema }]) => `<p class="media"><code>${escapeHtml(type)}</code></p>${schemaHtml(schema)}`)
    .join('');
}

function operationHtml(path: string, method: string, op: Operation): string {
  const id = anchor('op', op.operationId ?? `${method}-${path}`);
  const request = op.requestBody
    ? `<h4>Request body${op.requestBody.required ? '' : ' (optional)'}</h4>${contentHtml(op.requestBody.content)}`
    : '';
  const responses = Object.entries(op.responses ?? {}).map(
    ([status, r]) =>
      `<tr><th scope="row">${escapeHtml(status)}</th><td><p>${prose(r.description)}</p>${contentHtml(r.content)}</td></tr>`,
  );
  return (
    `<section class="op" id="${id}" data-method="${method}" data-path="${escapeHtml(path)}" aria-labelledby="${id}-h">` +
    `<h3 id="${id}-h"><span class="method ${method}">${method.toUpperCase()}</span> <code class="path">${escapeHtml(path)}</code></h3>` +
    `<p>${prose(op.summary)}</p>${op.description ? `<p>${prose(op.description)}</p>` : ''}` +
    `<p class="credential">Credential: ${credentialText(op.security)}</p>` +
    parametersHtml(op.parameters) +
    request +
    `<h4>Responses</h4><table class="responses"><thead><tr><th scope="col">Status</th><th scope="col">Answer</th></tr></thead><tbody>${responses.join('')}</tbody></table>` +
    '</section>'
  );
}

/** The operations of the document by tag, in the document's tag order, untagged ones last. */
function byTag(doc: ApiDocument): Map<string, { path: string; method: string; op: Operation }[]> {
  const groups = new Map<string, { path: string; method: string; op: Operation }[]>(
    (doc.tags ?? []).map((t) => [t.name, []]),
  );
  for (const [path, item] of Object.entries(doc.paths ?? {})) {
    for (const method of METHODS) {
      const op = item[method];
      if (!op) continue;
      const tag = op.tags?.[0] ?? 'Other';
      if (!groups.has(tag)) groups.set(tag, []);
      groups.get(tag)!.push({ path, method, op });
    }
  }
  for (const [tag, ops] of groups) if (ops.length === 0) groups.delete(tag);
  return groups;
}

export function renderDocsPage(doc: ApiDocument, documentPath: string): string {
  const groups = byTag(doc);
  const title = `${doc.info?.title ?? 'API'} reference`;
  const nav = [...groups]
    .map(
      ([tag, ops]) =>
        `<li><a href="#${anchor('tag', tag)}">${escapeHtml(tag)}</a><ul>${ops
          .map(
            ({ path, method, op }) =>
              `<li><a href="#${anchor('op', op.operationId ?? `${method}-${path}`)}" title="${escapeHtml(path)}"><span class="method ${method}">${method.toUpperCase()}</span> ${escapeHtml(shortPath(path))}</a></li>`,
          )
          .join('')}</ul></li>`,
    )
    .join('');
  const sections = [...groups]
    .map(
      ([tag, ops]) =>
        `<section aria-labelledby="${anchor('tag', tag)}"><h2 id="${anchor('tag', tag)}">${escapeHtml(tag)}</h2>${ops
          .map(({ path, method, op }) => operationHtml(path, method, op))
          .join('')}</section>`,
    )
    .join('');
  const schemas = Object.entries(doc.components?.schemas ?? {})
    .map(
      ([name, schema]) =>
        `<section class="schema" id="${anchor('schema', name)}" aria-labelledby="${anchor('schema', name)}-h"><h3 id="${anchor('schema', name)}-h">${escapeHtml(name)}</h3>${schemaHtml(schema)}</section>`,
    )
    .join('');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Skiff API reference</title>
<style>${STYLE}</style>
</head>
<body>
<header>
<a class="skip" href="#main">Skip to the operations</a>
<h1>${escapeHtml(title)} <span class="version">${escapeHtml(doc.info?.version ?? '')}</span></h1>
<p>${prose(doc.info?.description)}</p>
<p>The OpenAPI 3.1 document this page shows: <a href="${escapeHtml(documentPath)}">${escapeHtml(documentPath)}</a>. Every error answer is <code>${PROBLEM_TYPE}</code> (RFC 9457), of the schema ${typeText({ $ref: '#/components/schemas/Problem' })}.</p>
</header>
<div class="layout">
<nav aria-label="Operations"><ul>${nav}<li><a href="#schemas">Schemas</a></li></ul></nav>
<main id="main">${sections}<section aria-labelledby="schemas"><h2 id="schemas">Schemas</h2>${schemas}</section></main>
</div>
</body>
</html>
`;
}

// Colours: every text pair is at least 4.5:1 (the method badges' white text on their fills too).
// content-visibility: the browser lays out only the operations on screen, so the first paint does
// not wait for the whole page's layout.
const STYLE = `
:root{color-scheme:light dark;--bg:#fff;--fg:#1b1f24;--muted:#4a535e;--line:#d0d7de;--code:#f3f5f7;--link:#0a58b8;
--get:#0b5394;--post:#1e6b34;--put:#7a4400;--patch:#6a3d9a;--delete:#a4161a}
@media (prefers-color-scheme:dark){:root{--bg:#15181c;--fg:#e6e9ec;--muted:#b3bcc6;--line:#3a424b;--code:#22272e;--link:#8cc2ff}}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--fg);font:15px/1.5 system-ui,sans-serif}
a{color:var(--link)}
code{font:13px/1.4 ui-monospace,monospace;background:var(--code);padding:0 .2em;border-radius:3px;overflow-wrap:anywhere}
header{padding:1rem 1.5rem;border-bottom:1px solid var(--line)}
h1{margin:.2rem 0;font-size:1.6rem}.version{font-size:1rem;color:var(--muted)}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:.5rem;background:var(--bg);padding:.3rem}
.layout{display:grid;grid-template-columns:minmax(14rem,22rem) 1fr}
nav{position:sticky;top:0;align-self:start;max-height:100vh;overflow:auto;padding:1rem;border-right:1px solid var(--line);font-size:13px}
nav ul{list-style:none;margin:0;padding:0}nav ul ul{margin:.2rem 0 .8rem}nav a{display:inline-block;min-height:24px;padding:.15rem 0}nav li li a{display:block;text-decoration:none;overflow-wrap:anywhere}
main{padding:0 1.5rem 3rem;min-width:0}
h2{margin:2rem 0 .5rem;padding-bottom:.3rem;border-bottom:2px solid var(--line)}
h3{font-size:1.05rem;margin:0 0 .4rem}h4{margin:.8rem 0 .3rem;font-size:.95rem}
.op,.schema{border:1px solid var(--line);border-radius:6px;padding:.8rem 1rem;margin:1rem 0;content-visibility:auto;contain-intrinsic-size:auto 20rem}
.method{display:inline-block;min-width:4.2em;text-align:center;color:#fff;border-radius:3px;padding:0 .3em;font:700 12px/1.6 ui-monospace,monospace}
.get{background:var(--get)}.post{background:var(--post)}.put{background:var(--put)}.patch{background:var(--patch)}.delete{background:var(--delete)}
.path{font-size:14px}.credential,.optional,.media{color:var(--muted)}.optional{font-size:12px}
table{border-collapse:collapse;width:100%;font-size:14px}th code{white-space:nowrap;overflow-wrap:normal}th,td{text-align:left;vertical-align:top;border-top:1px solid var(--line);padding:.3rem .5rem}
td p,dd p{margin:0 0 .2rem}.type{margin:0}.type a{display:inline-block;min-height:24px}
dl.props{margin:.2rem 0;display:grid;grid-template-columns:max-content 1fr;gap:.1rem .8rem}dd{margin:0}
@media (max-width:800px){.layout{grid-template-columns:1fr}nav{position:static;max-height:none;border-right:0}}
`;
