/**
 * logfmt (`level=info msg="quoted \" text" ts=... flag`) reader. Hand-written because this runs
 * on every line that merely *starts* like a key, and a regex per pair would dominate parse time.
 */

/** Keys whose presence makes a short key=value line credible as logfmt rather than prose. */
const KNOWN_KEYS = ['level', 'lvl', 'severity', 'msg', 'message', 'time', 'ts', 'timestamp'];

function isKeyStartChar(c: number): boolean {
  return (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c === 95;
}

function isKeyChar(c: number): boolean {
  return isKeyStartChar(c) || (c >= 48 && c <= 57) || c === 46 || c === 45 || c === 47 || c === 64;
}

/** Cheap pre-check: an identifier immediately followed by `=`. Rejects prose after a few chars. */
export function looksLikeLogfmt(s: string, start: number): boolean {
  if (!isKeyStartChar(s.charCodeAt(start))) return false;
  let i = start + 1;
  while (i < s.length && isKeyChar(s.charCodeAt(i))) i++;
  return s.charCodeAt(i) === 61;
}

function unquote(s: string, from: number, to: number): string {
  let out = '';
  let seg = from;
  for (let i = from; i < to; i++) {
    if (s.charCodeAt(i) !== 92) continue;
    out += s.slice(seg, i);
    const c = s[i + 1];
    i++;
    if (c === 'n') out += '\n';
    else if (c === 't') out += '\t';
    else if (c === 'r') out += '\r';
    // `\u` needs four hex digits (the slice is exactly four characters): parseInt alone would
    // also take "12zz", "+041" or " 041" and swallow the rest.
    else if (c === 'u' && i + 4 < to && /[0-9a-f]{4}/i.test(s.slice(i + 1, i + 5))) {
      out += String.fromCharCode(Number.parseInt(s.slice(i + 1, i + 5), 16));
      i += 4;
    } else out += c ?? '';
    seg = i + 1;
  }
  return out + s.slice(seg, to);
}

function setField(fields: Record<string, string>, key: string, value: string): void {
  // Plain assignment to `__proto__` would hit the prototype setter instead of storing a field.
  if (key === '__proto__')
    Object.defineProperty(fields, key, { value, enumerable: true, writable: true, configurable: true });
  else fields[key] = value;
}

/**
 * Parses `s` from `start` as logfmt. Returns the fields, or undefined when the text is not
 * credibly logfmt: a quote left open, a token that cannot be a key, or too little structure —
 * at least one known key (with no more bare words than pairs), or two pairs and no bare words.
 * Bare keys get the value '' and duplicate keys keep the last value.
 */
export function parseLogfmt(s: string, start: number): Record<string, string> | undefined {
  // A plain literal, not Object.create(null): null-prototype objects start in V8's slow
  // dictionary mode, which made logfmt parsing ~4x slower. `__proto__` is handled in setField.
  const fields: Record<string, string> = {};
  const len = s.length;
  let pairs = 0;
  let bare = 0;
  let i = start;
  for (;;) {
    while (i < len && (s.charCodeAt(i) === 32 || s.charCodeAt(i) === 9)) i++;
    if (i >= len) break;
    const keyStart = i;
    for (; i < len; i++) {
      const c = s.charCodeAt(i);
      if (c === 61 || c === 32 || c === 9) break;
      if (c === 34) return undefined;
    }
    if (i === keyStart) return undefined;
    const key = s.slice(keyStart, i);
    if (s.charCodeAt(i) !== 61) {
      setField(fields, key, '');
      bare++;
      continue;
    }
    i++;
    if (s.charCodeAt(i) === 34) {
      const vStart = i + 1;
      let escaped = false;
      let j = vStart;
      for (; j < len; j++) {
        const c = s.charCodeAt(j);
        if (c === 92) {
          escaped = true;
          j++;
        } else if (c === 34) break;
      }
      if (j >= len) return undefined;
      setField(fields, key, escaped ? unquote(s, vStart, j) : s.slice(vStart, j));
      i = j + 1;
    } else {
      const vStart = i;
      while (i < len && s.charCodeAt(i) !== 32 && s.charCodeAt(i) !== 9) i++;
      setField(fields, key, s.slice(vStart, i));
    }
    pairs++;
  }
  let known = false;
  for (const k of KNOWN_KEYS) {
    if (fields[k] !== undefined) {
      known = true;
      break;
    }
  }
  const credible = (known && bare <= pairs) || (pairs >= 2 && bare === 0);
  return credible ? fields : undefined;
}
