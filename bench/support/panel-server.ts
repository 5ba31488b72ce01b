// A real panel on a fresh SQLite database with one user and one client API key, for benchmarks.
// Prints one JSON line {url, token} and serves until killed.
import { KEY_TYPE } from '../../apps/panel/src/modules/api-keys/api-keys.service.ts';
import { startTestPanel } from '../../apps/panel/src/test-support/panel.ts';

const panel = await startTestPanel({ APP_API_CLIENT_RATELIMIT: '100000000' });
const user = await panel.createUser({ username: 'bench', email: 'bench@example.com' });
const { key, secret } = await panel.ctx.services.apiKeys.create(user, KEY_TYPE.client, { description: 'bench' });
console.log(JSON.stringify({ url: panel.url, token: key.identifier + secret }));
process.on('SIGTERM', () => {
  void panel.close().then(() => process.exit(0));
});
