import { DOMParser, XMLSerializer, type Document, type Element, type Node } from '@xmldom/xmldom';
import type { ReplaceRule } from './rules.ts';
import { resolveText, type ConfigLookup } from './values.ts';

const ELEMENT = 1;
const TEXT = 3;
const CDATA = 4;
const PI = 7;
const COMMENT = 8;
const DOCTYPE = 10;

interface Segment {
  name: string; // '*' for any element
  attrs: { name: string; value: string | null }[];
  position: number | null; // 1-based, as XPath
}

/** Split at dots outside square brackets (`a[@v='1.2'].b` has two segments). */
function splitPath(path: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < path.length; i++) {
    const c = path[i];
    if (c === '[') depth++;
    else if (c === ']') depth = Math.max(0, depth - 1);
    else if (c === '.' && depth === 0) {
      out.push(path.slice(start, i));
      start = i + 1;
    }
  }
  out.push(path.slice(start));
  return out;
}

function parseSegment(seg: string): Segment {
  const m = /^([^[\]]+)((?:\[[^\]]*\])*)$/.exec(seg);
  if (!m) throw new Error(`bad element path segment "${seg}"`);
  const s: Segment = { name: m[1]!, attrs: [], position: null };
  for (const p of m[2]!.matchAll(/\[([^\]]*)\]/g)) {
    const body = p[1]!;
    const attr = /^@([^=\s]+)(?:\s*=\s*(['"])(.*)\2)?$/.exec(body);
    if (attr) s.attrs.push({ name: attr[1]!, value: attr[3] ?? null });
    else if (/^\d+$/.test(body) && Number(body) > 0) s.position = Number(body);
    else throw new Error(`unsupported predicate [${body}] in "${seg}"`);
  }
  return s;
}

function matches(el: Element, s: Segment): boolean {
  if (s.name !== '*' && el.nodeName !== s.name) return false;
  return s.attrs.every(
    (a) => el.hasAttribute(a.name) && (a.value === null || el.getAttribute(a.name) === a.value),
  );
}

function childElements(el: Element): Element[] {
  const out: Element[] = [];
  for (let n = el.firstChild; n; n = n.nextSibling) if (n.nodeType === ELEMENT) out.push(n as Element);
  return out;
}

function select(parents: readonly Element[], s: Segment): Element[] {
  const out: Element[] = [];
  for (const p of parents) {
    const hits = childElements(p).filter((c) => matches(c, s));
    if (s.position === null) out.push(...hits);
    else if (hits[s.position - 1]) out.push(hits[s.position - 1]!);
  }
  return out;
}

/** Elements at `./Root/Child/Leaf`; with `create`, missing elements below the root are made first. */
function resolve(doc: Document, segments: readonly Segment[], create: boolean): Element[] {
  const root = doc.documentElement;
  if (!root || !matches(root, segments[0]!)) return [];
  if (create) {
    let cur: Element = root;
    for (const s of segments.slice(1)) {
      let next = select([cur], s)[0];
      if (!next) {
        next = doc.createElement(s.name);
        for (const a of s.attrs) next.setAttribute(a.name, a.value ?? '');
        cur.appendChild(next);
      }
      cur = next;
    }
  }
  let set: Element[] = [root];
  if (segments[0]!.position !== null && segments[0]!.position !== 1) return [];
  for (const s of segments.slice(1)) set = select(set, s);
  return set;
}

function setText(doc: Document, el: Element, text: string): void {
  for (const n of Array.from(el.childNodes)) {
    if (n.nodeType === TEXT || n.nodeType === CDATA) el.removeChild(n);
  }
  el.insertBefore(doc.createTextNode(text), el.firstChild);
}

const escapeText = (s: string): string =>
  s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
const escapeAttr = (s: string): string =>
  escapeText(s)
    .replace(/"/g, '&quot;')
    .replace(/\n/g, '&#10;')
    .replace(/\r/g, '&#13;')
    .replace(/\t/g, '&#9;');

function leaf(n: Node): string {
  switch (n.nodeType) {
    case TEXT:
      return escapeText(n.nodeValue ?? '');
    case CDATA:
      return `<![CDATA[${n.nodeValue ?? ''}]]>`;
    case COMMENT:
      return `<!--${n.nodeValue ?? ''}-->`;
    case PI:
      return `<?${n.nodeName}${n.nodeValue ? ' ' + n.nodeValue : ''}?>`;
    default:
      return new XMLSerializer().serializeToString(n);
  }
}

function element(el: Element, depth: number, out: string[]): void {
  const pad = '  '.repeat(depth);
  let open = `<${el.nodeName}`;
  for (const a of Array.from(el.attributes)) open += ` ${a.name}="${escapeAttr(a.value)}"`;
  const kids = Array.from(el.childNodes);
  if (kids.length === 0) {
    out.push(`${pad}${open}/>`);
    return;
  }
  if (kids.every((k) => k.nodeType === TEXT || k.nodeType === CDATA)) {
    out.push(`${pad}${open}>${kids.map(leaf).join('')}</${el.nodeName}>`);
    return;
  }
  out.push(`${pad}${open}>`);
  for (const k of kids) {
    if (k.nodeType === ELEMENT) element(k as Element, depth + 1, out);
    else if (k.nodeType === TEXT) {
      const t = (k.nodeValue ?? '').trim();
      if (t !== '') out.push(`${pad}  ${escapeText(t)}`);
    } else out.push(`${pad}  ${leaf(k)}`);
  }
  out.push(`${pad}</${el.nodeName}>`);
}

/** The document indented with 2 spaces (whitespace between elements is re-made, text kept). */
export function serializeXml(doc: Document): string {
  const out: string[] = [];
  for (let n = doc.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === ELEMENT) element(n as Element, 0, out);
    else if (n.nodeType === PI || n.nodeType === COMMENT || n.nodeType === DOCTYPE) out.push(leaf(n));
  }
  return out.join('\n') + '\n';
}

/**
 * The `xml` parser (Wings protocol §6.5): `match` is a dotted element path from the root element
 * (`Settings.Server.Port` = `./Settings/Server/Port`); missing elements below the root are created
 * for paths without `*`; a value `[name='value']` sets that attribute on every matching element,
 * anything else their text. A file without a root element gets an XML declaration (unless it has
 * one) and a root element named after the first rule's first segment.
 */
export function rewriteXml(
  text: string,
  rules: readonly ReplaceRule[],
  lookup: ConfigLookup,
  onRuleError: (rule: ReplaceRule, err: Error) => void,
): string {
  let source = text;
  if (!/<[A-Za-z_:]/.test(source)) {
    // No root element (an empty file, or only a declaration/comments): make one.
    const first = rules[0] ? parseSegment(splitPath(rules[0].match)[0]!).name : '';
    if (first === '' || first === '*') return text;
    if (!/^\s*<\?xml\s/.test(source)) source = `<?xml version="1.0" encoding="UTF-8"?>\n${source}`;
    source += `<${first}/>`;
  }
  const doc = new DOMParser({
    locator: false,
    onError: (level, msg) => {
      if (level !== 'warning') throw new Error(msg);
    },
  }).parseFromString(source, 'text/xml');
  for (const rule of rules) {
    try {
      const segments = splitPath(rule.match).map(parseSegment);
      const wildcard = segments.some((s) => s.name === '*');
      const targets = resolve(doc, segments, !wildcard);
      if (targets.length === 0 && !wildcard) {
        throw new Error(`the root element is not <${segments[0]!.name}>`);
      }
      const value = resolveText(rule.replaceWith, lookup);
      const attr = /^\[([^=\]\s]+)='(.*)'\]$/s.exec(value);
      for (const el of targets) {
        if (attr) el.setAttribute(attr[1]!, attr[2]!);
        else setText(doc, el, value);
      }
    } catch (err) {
      onRuleError(rule, err as Error);
    }
  }
  return serializeXml(doc);
}
