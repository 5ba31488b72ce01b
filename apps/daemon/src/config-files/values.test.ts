import { describe, expect, it } from 'vitest';
import { parseConfig } from '../config/config.ts';
import { compileGoRegex, configLookup, regexReplace, resolveText, snakeCase, typedValue } from './values.ts';

const config = parseConfig({
  token_id: 'tokenid0123456789',
  token: 'secret-node-token',
  remote: 'http://panel.test',
  api: { port: 8443 },
  system: { data: '/srv/talon/volumes' },
});
const lookup = configLookup(config);

describe('{{config.*}} resolution', () => {
  it.each([
    ['{{config.api.port}}', '8443'],
    ['{{ config.api.port }}', '8443'],
    ['{{config.system.sftp.bindPort}}', '2022'], // segments are snake_cased
    ['{{config.system.timezone}}', config.system.timezone],
    ['{{config.api.uploadLimit}}', '100'],
    ['{{config.api.ssl.enabled}}', 'false'],
    ['{{config.app_name}} on {{config.api.port}}', 'Talon on 8443'],
    ['{{config.docker.network.interface}}', '127.0.0.1'], // runtime default: servers share the host network
    ['{{config.does.not.exist}}', ''],
    ['a {{config.api.port}} b {{config.nope}}', ''], // a missing path empties the whole value
    ['{{config.token}}', ''], // node secrets are never handed out
    ['{{config.token_id}}', ''],
    ['{{  config.api.port}}', '{{  config.api.port}}'], // only one space is allowed
    ['plain', 'plain'],
  ])('%s → %j', (raw, want) => {
    expect(resolveText(raw, lookup)).toBe(want);
  });

  // CVE-2026-52855: an egg's rule read the node's own configuration (Wings resolved any path).
  it.each([
    '{{config.token}}',
    '{{config.tokenId}}',
    '{{config.token_id}}',
    '{{config.api.ssl.key}}',
    '{{config.api.ssl.cert}}',
    '{{config.api.ssl}}',
    '{{config.api}}',
    '{{config.remote}}',
    '{{config.system.data}}/x',
    '{{config.system.Data}}',
    '{{config.system}}',
    '{{config.uuid}}',
    '{{config.docker}}',
    '{{config.__proto__}}',
    '{{config.constructor}}',
  ])('hands out no value beyond the exposed list: %s → ""', (raw) => {
    const withKeys = configLookup({
      ...config,
      api: { ...config.api, ssl: { enabled: true, cert: '/etc/talon/cert.pem', key: '/etc/talon/key.pem' } },
    });
    expect(resolveText(raw, withKeys)).toBe('');
  });

  it('renders non-string replace_with values as text', () => {
    expect(resolveText(25565, lookup)).toBe('25565');
    expect(resolveText(true, lookup)).toBe('true');
    expect(resolveText(null, lookup)).toBe('');
  });

  it('gives the configured interface only to containers on a Docker bridge, else the loopback', () => {
    const network = (mode: string) => ({
      ...config.docker.network,
      network_mode: mode,
      interface: '10.1.2.3',
    });
    const address = (c: Record<string, unknown>) =>
      resolveText('{{config.docker.network.interface}}', configLookup(c));
    const bridged = {
      ...config,
      runtime: { ...config.runtime, driver: 'docker' },
      docker: { ...config.docker, network: network('talon_nw') },
    };
    expect(address(bridged)).toBe('10.1.2.3');
    // The host network and the process runtime share the host's network: the interface is not theirs.
    expect(address({ ...bridged, docker: { ...config.docker, network: network('host') } })).toBe('127.0.0.1');
    expect(address({ ...bridged, runtime: { ...config.runtime, driver: 'process' } })).toBe('127.0.0.1');
  });

  it.each([
    ['apiPort', 'api_port'],
    ['APIPort', 'api_port'],
    ['upload-limit', 'upload_limit'],
    ['data', 'data'],
  ])('snake_case %s → %s', (a, b) => {
    expect(snakeCase(a)).toBe(b);
  });
});

describe('typed values (yaml/json)', () => {
  it.each([
    [true, 'true', true],
    [false, 'false', false],
    [true, '1', true],
    ['25565', '25565', 25565],
    ['-3', '-3', -3],
    ['1.5', '1.5', '1.5'],
    ['0.0.0.0', '0.0.0.0', '0.0.0.0'],
    ['true', 'true', 'true'], // a string "true" stays a string
    ['99999999999999999999', '99999999999999999999', '99999999999999999999'], // beyond exact integers
  ])('replace_with %j, text %j → %j', (raw, text, want) => {
    expect(typedValue(raw, text)).toStrictEqual(want);
  });
});

describe('regex substitution (Go template syntax)', () => {
  const re = compileGoRegex('^(127\\.0\\.0\\.1|localhost)(:\\d{1,5})?$');
  it.each([
    ['localhost:25565', '10.0.0.1$2', '10.0.0.1:25565'],
    ['127.0.0.1', '10.0.0.1$2', '10.0.0.1'],
    ['localhost:1', '${1}x', 'localhostx'],
    ['localhost:1', '$1x', ''], // Go reads `$1x` as the (missing) group named "1x"
    ['localhost:1', '$$1', '$1'],
    ['localhost:1', 'a$', 'a$'],
  ])('%s with %s → %s', (text, tpl, want) => {
    expect(regexReplace(re, text, tpl)).toBe(want);
  });

  it('accepts named groups and leading flags as RE2 writes them', () => {
    const named = compileGoRegex('(?i)^(?P<host>LOCALHOST):(?P<port>\\d+)$');
    expect(regexReplace(named, 'localhost:7', '${port}@${host}')).toBe('7@localhost');
  });
});
