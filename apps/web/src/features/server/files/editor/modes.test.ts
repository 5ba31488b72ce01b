import { describe, expect, it } from 'vitest';
import { modeById, modeFor, MODES } from './modes.ts';

describe('editor modes', () => {
  it('offers every language of the spec, each with a MIME type', () => {
    expect(MODES.map((mode) => mode.name).sort()).toEqual(
      [
        'C',
        'C++',
        'CSS',
        'Dockerfile',
        'Markdown',
        'Go',
        'HTML',
        'JavaScript',
        'JSON',
        'Lua',
        'MySQL',
        'Nginx',
        'PHP',
        'Plain Text',
        'Properties (ini)',
        'Python',
        'Ruby',
        'Rust',
        'Sass',
        'SCSS',
        'Shell',
        'SQL',
        'TOML',
        'TypeScript',
        'Vue',
        'XML',
        'YAML',
      ].sort(),
    );
    for (const mode of MODES) expect(mode.mime).toMatch(/^[a-z]+\/[\w.+-]+$/);
    expect(new Set(MODES.map((mode) => mode.id)).size).toBe(MODES.length);
  });

  it.each([
    ['main.c', 'C'],
    ['engine.hpp', 'C++'],
    ['style.css', 'CSS'],
    ['Dockerfile', 'Dockerfile'],
    ['Dockerfile.dev', 'Dockerfile'],
    ['README.md', 'Markdown'],
    ['main.go', 'Go'],
    ['index.HTML', 'HTML'],
    ['server.js', 'JavaScript'],
    ['loader.mjs', 'JavaScript'],
    ['package.json', 'JSON'],
    ['pack.mcmeta', 'JSON'],
    ['init.lua', 'Lua'],
    ['nginx.conf', 'Nginx'],
    ['index.php', 'PHP'],
    ['view.blade.php', 'PHP'],
    ['notes.txt', 'Plain Text'],
    ['latest.log', 'Plain Text'],
    ['server.properties', 'Properties (ini)'],
    ['settings.ini', 'Properties (ini)'],
    ['server.cfg', 'Properties (ini)'],
    ['bot.py', 'Python'],
    ['Gemfile', 'Ruby'],
    ['app.rb', 'Ruby'],
    ['main.rs', 'Rust'],
    ['theme.sass', 'Sass'],
    ['theme.scss', 'SCSS'],
    ['start.sh', 'Shell'],
    ['.bashrc', 'Shell'],
    ['.env', 'Shell'],
    ['dump.sql', 'SQL'],
    ['Cargo.toml', 'TOML'],
    ['index.ts', 'TypeScript'],
    ['types.d.ts', 'TypeScript'],
    ['App.vue', 'Vue'],
    ['pom.xml', 'XML'],
    ['config.yml', 'YAML'],
    ['docker-compose.yaml', 'YAML'],
    ['/plugins/Essentials/config.yml', 'YAML'],
  ])('picks a mode for %s by its name: %s', (name, expected) => {
    expect(modeFor(name).name).toBe(expected);
  });

  it.each([
    ['script', 'text/x-python', 'Python'],
    ['launcher', 'application/x-sh; charset=utf-8', 'Shell'],
    ['data', 'application/json', 'JSON'],
    ['feed', 'Text/XML', 'XML'],
    ['query', 'text/x-mysql', 'MySQL'],
    ['site', 'text/x-nginx-conf', 'Nginx'],
    ['settings', 'application/yaml', 'YAML'],
    ['eula', 'text/plain; charset=utf-8', 'Plain Text'],
    ['blob', 'application/octet-stream', 'Plain Text'],
    ['.pteroignore', undefined, 'Plain Text'],
    ['', undefined, 'Plain Text'],
  ])('falls back to the MIME type for %s (%s): %s', (name, mimetype, expected) => {
    expect(modeFor(name, mimetype).name).toBe(expected);
  });

  it('prefers the name to a generic MIME type', () => {
    expect(modeFor('config.yml', 'text/plain; charset=utf-8').name).toBe('YAML');
    expect(modeFor('server.js', 'application/json').name).toBe('JavaScript');
  });

  it('finds modes by id and falls back to Plain Text', () => {
    expect(modeById('yaml').mime).toBe('text/x-yaml');
    expect(modeById('nope').name).toBe('Plain Text');
  });
});
