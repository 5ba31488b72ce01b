import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

// CVE-2025-49132: the locale loader used its language and namespace parameters in a file path
// (and in code). Ours answers only pairs of a fixed catalogue; anything else is a 404 that reads
// nothing. Paths are sent byte for byte (fetch would resolve `..` before sending).
let panel: TestPanel;

function rawGet(path: string): Promise<{ status: number; body: string; type: string | undefined }> {
  const { hostname, port } = new URL(panel.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: hostname, port, path, method: 'GET', headers: { accept: 'application/json' } },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, body, type: res.headers['content-type'] }),
        );
      },
    );
    req.on('error', reject);
    req.end();
  });
}

beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel?.close();
});

describe('/locales/{lng}/{ns}.json (CVE-2025-49132)', () => {
  it('serves a namespace of the catalogue', async () => {
    const res = await rawGet('/locales/en/common.json');
    expect(res.status).toBe(200);
    expect(res.type).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body)).toBeTypeOf('object');
  });

  it('answers 404 to traversal, encoded traversal, unknown languages and namespaces, and code', async () => {
    for (const path of [
      '/locales/en/../../../package.json',
      '/locales/../package.json',
      '/locales/en/..%2F..%2F..%2Fpackage.json',
      '/locales/en/%2e%2e%2f%2e%2e%2fpackage.json',
      '/locales/%2e%2e/package.json',
      '/locales/..%2F..%2Fapps/package.json',
      '/locales/en%2F..%2F..%2F..%2F..%2F/package.json',
      '/locales/de/common.json',
      '/locales/EN/common.json',
      '/locales/en/nothing.json',
      '/locales/en/common',
      '/locales/en/common.json%00.txt',
      "/locales/en/common');require('child_process').exec('id');('.json",
      '/locales/locale.json?locale=../../../../config&namespace=app',
      '/locales/en/constructor.json',
      '/locales/__proto__/common.json',
    ]) {
      const res = await rawGet(path);
      expect([path, res.status]).toEqual([path, 404]);
      expect(res.body, path).not.toContain('"name"');
    }
  });
});
