import { billionLaughs } from '@talon/shared/eggs/hostile-eggs.fixture';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestClient } from '../../test-support/client.ts';
import { applicationClient } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';

// Issue 23 item 9: a 9 MB YAML egg sent to POST /api/application/nests/:nest/eggs/import ran the
// panel out of heap. Oversized, deep and alias-bomb files are refused before parsing, store
// nothing, and the panel goes on answering.
let panel: TestPanel;
let api: TestClient;
let nestId: number;
const importPath = () => `/api/application/nests/${nestId}/eggs/import`;
const eggCount = async () => (await panel.ctx.db.db.selectFrom('eggs').select('id').execute()).length;

function detailsOf(res: { status: number; text: string; body: any }) {
  expect(res.status, res.text).toBe(422);
  return (res.body.errors as { detail: string; meta: { source_field: string } }[]).map(
    (e) => `${e.meta.source_field}|${e.detail}`,
  );
}

beforeAll(async () => {
  panel = await startTestPanel();
  api = await applicationClient(panel);
  nestId = (await panel.ctx.services.eggs.ensureNest('Limits', 'test')).id;
});
afterAll(async () => {
  await panel.close();
});

describe('egg import limits', () => {
  it('refuses a 9 MB YAML document with 413 before reading it, storing nothing', async () => {
    const before = await eggCount();
    const line = '  key: "a value that repeats until the file is nine megabytes long"\n';
    const text = `meta:\n  version: PTDL_v2\nscripts:\n${line.repeat(Math.ceil(9e6 / line.length))}`;
    const res = await api.postRaw(importPath(), text);
    expect(res.status, res.text).toBe(413);
    expect(res.body).toMatchObject({ errors: [{ code: 'PayloadTooLargeHttpException', status: '413' }] });
    // The same document wrapped as the admin screen sends it.
    expect((await api.post(importPath(), { egg: text })).status).toBe(413);
    expect(await eggCount()).toBe(before);
    expect((await api.get(`/api/application/nests/${nestId}`)).status).toBe(200);
  });

  it('refuses file text over 256 KiB with a 422 in words', async () => {
    const before = await eggCount();
    const text = `meta:\n  version: PTDL_v2\ndescription: "${'x'.repeat(300 * 1024)}"\n`;
    expect(detailsOf(await api.postRaw(importPath(), text))).toEqual([
      '|the file is 301 KiB; an egg file may be at most 256 KiB',
    ]);
    expect(await eggCount()).toBe(before);
  });

  it('refuses a billion-laughs alias bomb and a bracket bomb with a 422 in words', async () => {
    const before = await eggCount();
    expect(detailsOf(await api.postRaw(importPath(), billionLaughs()))).toEqual([
      '|the file expands YAML aliases too often (more than 100 times): an egg file needs none',
    ]);
    const depth = 100_000;
    const brackets = `meta: { version: PTDL_v2 }\nvariables: ${'['.repeat(depth)}${']'.repeat(depth)}\n`;
    expect(detailsOf(await api.postRaw(importPath(), brackets))).toEqual([
      '|the file nests lists or maps more than 64 levels deep',
    ]);
    expect(await eggCount()).toBe(before);
  });
});
