import { StreamLanguage, type StreamParser } from '@codemirror/language';
import type { Extension } from '@codemirror/state';
import type { ModeId } from './modes.ts';

/** A CodeMirror 5 style mode, as the legacy-modes package ports them. */
async function legacy<T>(parser: Promise<StreamParser<T>>): Promise<Extension> {
  return StreamLanguage.define(await parser);
}

/**
 * CodeMirror support for each mode. Every grammar is imported on demand, so each lands in a chunk
 * of its own and only the ones a user opens are downloaded.
 */
const LOADERS: Record<ModeId, () => Promise<Extension>> = {
  c: () => import('@codemirror/lang-cpp').then((m) => m.cpp()),
  cpp: () => import('@codemirror/lang-cpp').then((m) => m.cpp()),
  css: () => import('./grammars/css.ts').then((m) => m.css()),
  dockerfile: () => legacy(import('@codemirror/legacy-modes/mode/dockerfile').then((m) => m.dockerFile)),
  go: () => import('@codemirror/lang-go').then((m) => m.go()),
  html: () => import('@codemirror/lang-html').then((m) => m.html()),
  javascript: () => import('./grammars/javascript.ts').then((m) => m.javascript({ jsx: true })),
  json: () => import('@codemirror/lang-json').then((m) => m.json()),
  lua: () => legacy(import('@codemirror/legacy-modes/mode/lua').then((m) => m.lua)),
  markdown: () => import('@codemirror/lang-markdown').then((m) => m.markdown()),
  mysql: () => import('@codemirror/lang-sql').then((m) => m.sql({ dialect: m.MySQL })),
  nginx: () => legacy(import('@codemirror/legacy-modes/mode/nginx').then((m) => m.nginx)),
  php: () => import('@codemirror/lang-php').then((m) => m.php()),
  text: () => Promise.resolve([]),
  properties: () => legacy(import('@codemirror/legacy-modes/mode/properties').then((m) => m.properties)),
  python: () => import('@codemirror/lang-python').then((m) => m.python()),
  ruby: () => legacy(import('@codemirror/legacy-modes/mode/ruby').then((m) => m.ruby)),
  rust: () => import('@codemirror/lang-rust').then((m) => m.rust()),
  sass: () => import('@codemirror/lang-sass').then((m) => m.sass({ indented: true })),
  scss: () => import('@codemirror/lang-sass').then((m) => m.sass()),
  shell: () => legacy(import('@codemirror/legacy-modes/mode/shell').then((m) => m.shell)),
  sql: () => import('@codemirror/lang-sql').then((m) => m.sql()),
  toml: () => legacy(import('@codemirror/legacy-modes/mode/toml').then((m) => m.toml)),
  typescript: () => import('./grammars/javascript.ts').then((m) => m.javascript({ typescript: true })),
  vue: () => import('@codemirror/lang-vue').then((m) => m.vue()),
  xml: () => import('@codemirror/lang-xml').then((m) => m.xml()),
  yaml: () => import('@codemirror/lang-yaml').then((m) => m.yaml()),
};

/** The editor extension that highlights (and indents) `mode`. */
export function loadLanguage(mode: ModeId): Promise<Extension> {
  return LOADERS[mode]();
}
