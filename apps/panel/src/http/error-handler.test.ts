import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';
import { UNEXPECTED } from './error-handler.ts';

let panel: TestPanel;

beforeAll(async () => {
  panel = await startTestPanel();
});
afterAll(async () => {
  await panel.close();
});

describe('unexpected errors', () => {
  it('answer a database failure with the generic 500 body: no driver class, message, SQL or stack', async () => {
    const client = await panel.signedIn(await panel.createUser());
    // A real driver error (SqliteError / pg's DatabaseError) from a real query.
    await sql`drop table user_ssh_keys`.execute(panel.ctx.db.db);
    const res = await client.get('/api/client/account/ssh-keys');
    expect(res.status).toBe(500);
    expect(res.body).toEqual({ errors: [{ code: 'HttpException', status: '500', detail: UNEXPECTED }] });
    for (const leak of ['SqliteError', 'DatabaseError', 'user_ssh_keys', 'select', ' at ']) {
      expect(res.text.toLowerCase()).not.toContain(leak.toLowerCase());
    }
  });
});
