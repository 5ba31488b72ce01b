import { readFile } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startStack, type Stack } from '../test-support/harness.ts';

/**
 * Wings 1.0.0-rc.7 and CVE-2024-34066 (wings-protocol §9): a node token could rewrite the daemon's
 * configuration over `POST /api/update` (mounts, directories, users) and so read or write any host
 * file. This daemon has no remote configuration route at all: its configuration changes only
 * through the file the operator owns. The test keeps it that way.
 */
describe('no remote configuration update (rc.7, CVE-2024-34066)', () => {
  let stack: Stack;
  beforeAll(async () => {
    stack = await startStack();
  });
  afterAll(async () => {
    await stack?.dispose();
  });

  it('POST /api/update with the node token changes nothing and answers 404', async () => {
    const before = await readFile(stack.configFile, 'utf8');
    const attack = {
      allowed_mounts: ['/'],
      system: { root_directory: '/', data: '/', user: { uid: 0, gid: 0 } },
      runtime: { allow_unconfined: true, uid: 0 },
    };
    for (const method of ['POST', 'PUT', 'PATCH']) {
      const res = await stack.api(method, '/api/update', attack);
      expect(res.status, method).toBe(404);
    }
    expect(await readFile(stack.configFile, 'utf8')).toBe(before);
  });
});
