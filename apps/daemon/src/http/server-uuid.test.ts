import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixtureServer, startStack, type Stack } from '../test-support/harness.ts';

// A server uuid becomes a path (server directory, installer scratch directory, install log): only
// a real uuid may. A panel (or a request) naming `../…` must never make the daemon use a directory
// outside its data directory.

describe('server uuids that would be paths outside the data directory', () => {
  let stack: Stack;

  beforeAll(async () => {
    stack = await startStack();
  }, 60_000);
  afterAll(async () => {
    await stack?.dispose();
  });

  it('POST /api/servers refuses a uuid that is not one (422), before asking the panel', async () => {
    for (const uuid of ['../escape', 'a/b', '..', '']) {
      const res = await stack.api('POST', '/api/servers', { uuid });
      expect(res.status).toBe(422);
    }
  });

  it('a server the panel lists with a path for a uuid is skipped at boot; the others load', async () => {
    const good = await stack.createInstalled();
    const evil = '../../escaped';
    stack.remote.servers.set(evil, fixtureServer(evil));
    await stack.daemon.close();
    await stack.restart();
    expect(stack.daemon.manager.get(good)).toBeDefined();
    expect(stack.daemon.manager.get(evil)).toBeUndefined();
    expect(existsSync(path.resolve(stack.config.system.data, evil))).toBe(false);
    expect((await stack.api('GET', '/api/servers')).status).toBe(200);
  });
});
