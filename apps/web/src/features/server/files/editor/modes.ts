/** Ids of the editor's syntax modes; each has a language loader in languages.ts. */
export type ModeId =
  | 'c'
  | 'cpp'
  | 'css'
  | 'dockerfile'
  | 'go'
  | 'html'
  | 'javascript'
  | 'json'
  | 'lua'
  | 'markdown'
  | 'mysql'
  | 'nginx'
  | 'php'
  | 'text'
  | 'properties'
  | 'python'
  | 'ruby'
  | 'rust'
  | 'sass'
  | 'scss'
  | 'shell'
  | 'sql'
  | 'toml'
  | 'typescript'
  | 'vue'
  | 'xml'
  | 'yaml';

/** A syntax mode of the file editor (spec 001 §2 "File editor"). */
export interface EditorMode {
  id: ModeId;
  /** The language's name, as the selector shows it. */
  name: string;
  /** The language's MIME type. */
  mime: string;
  /** Lower-case file name endings after a dot (`yml`, `blade.php`); the longest match wins. */
  extensions: readonly string[];
  /** Lower-case whole file names (`dockerfile`, `.bashrc`). */
  names?: readonly string[];
  /** Lower-case beginnings of file names (`dockerfile.` for `Dockerfile.dev`). */
  prefixes?: readonly string[];
  /** Other MIME types that name the same language. */
  aliases?: readonly string[];
}

/** The modes in the order the selector lists them. */
export const MODES: readonly EditorMode[] = [
  { id: 'c', name: 'C', mime: 'text/x-csrc', extensions: ['c', 'h'], aliases: ['text/x-c'] },
  {
    id: 'cpp',
    name: 'C++',
    mime: 'text/x-c++src',
    extensions: ['cpp', 'cc', 'cxx', 'c++', 'hpp', 'hh', 'hxx', 'h++', 'ino'],
    aliases: ['text/x-c++', 'text/x-c++hdr'],
  },
  { id: 'css', name: 'CSS', mime: 'text/css', extensions: ['css'] },
  {
    id: 'dockerfile',
    name: 'Dockerfile',
    mime: 'text/x-dockerfile',
    extensions: ['dockerfile'],
    names: ['dockerfile', 'containerfile'],
    prefixes: ['dockerfile.', 'containerfile.'],
  },
  { id: 'go', name: 'Go', mime: 'text/x-go', extensions: ['go'] },
  { id: 'html', name: 'HTML', mime: 'text/html', extensions: ['html', 'htm', 'xhtml'] },
  {
    id: 'javascript',
    name: 'JavaScript',
    mime: 'text/javascript',
    extensions: ['js', 'mjs', 'cjs', 'jsx'],
    aliases: ['application/javascript', 'application/x-javascript', 'text/ecmascript'],
  },
  {
    id: 'json',
    name: 'JSON',
    mime: 'application/json',
    extensions: ['json', 'jsonc', 'json5', 'mcmeta', 'webmanifest'],
    names: ['.babelrc', '.eslintrc'],
    aliases: ['text/json', 'application/ld+json'],
  },
  { id: 'lua', name: 'Lua', mime: 'text/x-lua', extensions: ['lua'] },
  {
    id: 'markdown',
    name: 'Markdown',
    mime: 'text/markdown',
    extensions: ['md', 'markdown', 'mkd'],
    aliases: ['text/x-markdown'],
  },
  { id: 'mysql', name: 'MySQL', mime: 'text/x-mysql', extensions: [] },
  {
    id: 'nginx',
    name: 'Nginx',
    mime: 'text/x-nginx-conf',
    extensions: ['nginx', 'nginxconf'],
    names: ['nginx.conf'],
  },
  {
    id: 'php',
    name: 'PHP',
    mime: 'application/x-httpd-php',
    extensions: ['php', 'phtml', 'php3', 'php4', 'php5', 'php7', 'phps'],
    aliases: ['text/x-php', 'application/x-php'],
  },
  {
    id: 'text',
    name: 'Plain Text',
    mime: 'text/plain',
    extensions: ['txt', 'text', 'log'],
  },
  {
    id: 'properties',
    name: 'Properties (ini)',
    mime: 'text/x-properties',
    extensions: ['properties', 'ini', 'cfg', 'conf', 'lang'],
    names: ['.editorconfig', '.gitconfig'],
    aliases: ['text/x-ini'],
  },
  {
    id: 'python',
    name: 'Python',
    mime: 'text/x-python',
    extensions: ['py', 'pyw', 'pyi'],
    aliases: ['text/x-script.python', 'application/x-python-code'],
  },
  {
    id: 'ruby',
    name: 'Ruby',
    mime: 'text/x-ruby',
    extensions: ['rb', 'gemspec', 'rake'],
    names: ['gemfile', 'rakefile'],
    aliases: ['application/x-ruby'],
  },
  { id: 'rust', name: 'Rust', mime: 'text/x-rustsrc', extensions: ['rs'], aliases: ['text/rust'] },
  { id: 'sass', name: 'Sass', mime: 'text/x-sass', extensions: ['sass'] },
  { id: 'scss', name: 'SCSS', mime: 'text/x-scss', extensions: ['scss'] },
  {
    id: 'shell',
    name: 'Shell',
    mime: 'text/x-sh',
    extensions: ['sh', 'bash', 'zsh', 'ksh', 'command', 'env'],
    names: ['.bashrc', '.bash_profile', '.profile', '.zshrc', '.env'],
    aliases: ['application/x-sh', 'text/x-shellscript', 'application/x-shellscript'],
  },
  { id: 'sql', name: 'SQL', mime: 'text/x-sql', extensions: ['sql'], aliases: ['application/sql'] },
  { id: 'toml', name: 'TOML', mime: 'text/x-toml', extensions: ['toml'], aliases: ['application/toml'] },
  {
    id: 'typescript',
    name: 'TypeScript',
    mime: 'application/typescript',
    extensions: ['ts', 'mts', 'cts', 'tsx'],
    aliases: ['text/typescript', 'application/x-typescript'],
  },
  { id: 'vue', name: 'Vue', mime: 'text/x-vue', extensions: ['vue'] },
  {
    id: 'xml',
    name: 'XML',
    mime: 'application/xml',
    extensions: ['xml', 'xsd', 'xsl', 'xslt', 'plist', 'pom', 'csproj'],
    aliases: ['text/xml'],
  },
  {
    id: 'yaml',
    name: 'YAML',
    mime: 'text/x-yaml',
    extensions: ['yml', 'yaml'],
    aliases: ['application/x-yaml', 'application/yaml', 'text/yaml'],
  },
];

const PLAIN = MODES.find((mode) => mode.id === 'text')!;

export function modeById(id: string): EditorMode {
  return MODES.find((mode) => mode.id === id) ?? PLAIN;
}

/** `Text/X-Yaml; charset=utf-8` → `text/x-yaml`. */
function baseType(mimetype: string): string {
  return (mimetype.split(';')[0] ?? '').trim().toLowerCase();
}

/** The mode a file name alone points to, or undefined. */
function modeForName(fileName: string): EditorMode | undefined {
  const name = (fileName.split('/').pop() ?? '').toLowerCase();
  if (name === '') return undefined;
  const exact = MODES.find((mode) => mode.names?.includes(name));
  if (exact) return exact;
  const prefixed = MODES.find((mode) => mode.prefixes?.some((prefix) => name.startsWith(prefix)));
  if (prefixed) return prefixed;
  // Every ending after a dot, longest first: `a.blade.php` tries `blade.php`, then `php`.
  for (let dot = name.indexOf('.'); dot !== -1; dot = name.indexOf('.', dot + 1)) {
    const ending = name.slice(dot + 1);
    const found = MODES.find((mode) => mode.extensions.includes(ending));
    if (found) return found;
  }
  return undefined;
}

/**
 * The mode an editor opens a file in: chosen by its name (whole name, then extension), else by its
 * MIME type when that names a language, else Plain Text.
 */
export function modeFor(fileName: string, mimetype?: string): EditorMode {
  const byName = modeForName(fileName);
  if (byName) return byName;
  if (mimetype) {
    const type = baseType(mimetype);
    const byType = MODES.find((mode) => mode.mime === type || mode.aliases?.includes(type));
    if (byType) return byType;
  }
  return PLAIN;
}
