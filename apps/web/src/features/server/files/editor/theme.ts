import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { EditorView } from '@codemirror/view';
import { tags as t } from '@lezer/highlight';

// The editor's look lives here, in CodeMirror's own style sheets, so that it ships with the
// editor's chunk and adds nothing to the app-wide CSS. Colours follow the panel's zinc and sky.
const BACKGROUND = '#09090b';
const GUTTER = '#18181b';
const BORDER = '#27272a';
const TEXT = '#e4e4e7';
const MUTED = '#71717a';
const ACCENT = '#38bdf8';

const chrome = EditorView.theme(
  {
    '&': {
      height: '65vh',
      minHeight: '18rem',
      backgroundColor: BACKGROUND,
      color: TEXT,
      fontSize: '13px',
    },
    '&.cm-focused': { outline: 'none' },
    '.cm-scroller': {
      fontFamily: "ui-monospace, SFMono-Regular, Menlo, Consolas, 'Liberation Mono', monospace",
      lineHeight: '1.6',
    },
    '.cm-content': { caretColor: ACCENT, padding: '8px 0' },
    '.cm-cursor, .cm-dropCursor': { borderLeftColor: ACCENT, borderLeftWidth: '2px' },
    '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, .cm-content ::selection':
      { backgroundColor: '#075985' },
    '.cm-gutters': { backgroundColor: GUTTER, color: MUTED, borderRight: `1px solid ${BORDER}` },
    '.cm-lineNumbers .cm-gutterElement': { padding: '0 10px 0 12px' },
    '.cm-activeLine': { backgroundColor: '#ffffff0a' },
    '.cm-activeLineGutter': { backgroundColor: BORDER, color: '#d4d4d8' },
    '.cm-selectionMatch': { backgroundColor: '#0c4a6e80' },
    '&.cm-focused .cm-matchingBracket': { backgroundColor: '#0c4a6e', outline: `1px solid ${ACCENT}` },
    '&.cm-focused .cm-nonmatchingBracket': { backgroundColor: '#7f1d1d' },
    '.cm-searchMatch': { backgroundColor: '#854d0e', outline: '1px solid #eab308' },
    '.cm-searchMatch.cm-searchMatch-selected': { backgroundColor: '#a16207' },
    '.cm-panels': { backgroundColor: GUTTER, color: TEXT },
    '.cm-panels.cm-panels-top': { borderBottom: `1px solid ${BORDER}` },
    '.cm-panels.cm-panels-bottom': { borderTop: `1px solid ${BORDER}` },
    '.cm-panel.cm-search': { padding: '6px 8px', fontSize: '13px' },
    '.cm-panel.cm-search label': { color: '#d4d4d8' },
    '.cm-textfield': {
      backgroundColor: BACKGROUND,
      color: TEXT,
      border: '1px solid #3f3f46',
      borderRadius: '4px',
      padding: '3px 6px',
    },
    '.cm-button': {
      backgroundImage: 'none',
      backgroundColor: '#3f3f46',
      color: TEXT,
      border: 'none',
      borderRadius: '4px',
      padding: '3px 8px',
    },
    '.cm-panel.cm-search [name=close]': { color: '#a1a1aa', fontSize: '18px' },
    '.cm-tooltip': { backgroundColor: GUTTER, border: `1px solid ${BORDER}`, color: TEXT },
  },
  { dark: true },
);

const highlight = HighlightStyle.define([
  { tag: [t.keyword, t.modifier, t.controlKeyword, t.operatorKeyword], color: '#c084fc' },
  { tag: [t.comment, t.lineComment, t.blockComment, t.docComment], color: MUTED, fontStyle: 'italic' },
  { tag: [t.string, t.special(t.string), t.regexp, t.character], color: '#86efac' },
  { tag: [t.number, t.integer, t.float], color: '#fbbf24' },
  { tag: [t.bool, t.null, t.atom, t.unit], color: '#f472b6' },
  { tag: [t.function(t.variableName), t.function(t.propertyName), t.macroName], color: '#7dd3fc' },
  { tag: [t.definition(t.variableName), t.definition(t.propertyName)], color: '#bae6fd' },
  { tag: [t.typeName, t.className, t.namespace, t.standard(t.typeName)], color: '#fcd34d' },
  { tag: [t.propertyName, t.labelName], color: '#93c5fd' },
  { tag: [t.attributeName], color: '#fdba74' },
  { tag: [t.tagName, t.angleBracket], color: '#f87171' },
  { tag: [t.operator, t.punctuation, t.separator, t.bracket], color: '#a1a1aa' },
  { tag: [t.meta, t.processingInstruction, t.annotation], color: '#a1a1aa' },
  { tag: [t.escape, t.special(t.variableName), t.self], color: '#f9a8d4' },
  { tag: t.heading, color: '#7dd3fc', fontWeight: 'bold' },
  { tag: t.strong, fontWeight: 'bold' },
  { tag: t.emphasis, fontStyle: 'italic' },
  { tag: t.strikethrough, textDecoration: 'line-through' },
  { tag: [t.link, t.url], color: ACCENT, textDecoration: 'underline' },
  { tag: t.invalid, color: '#f87171' },
]);

/** The editor's colours, sizes and syntax colours. */
export const editorTheme = [chrome, syntaxHighlighting(highlight)];
