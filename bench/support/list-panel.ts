// A real panel on a fresh SQLite database whose one user owns `argv[2]` servers (rows only: no daemon
// is needed to list them), with a client API key. Prints one JSON line {url, token} and serves until killed.
import { KEY_TYPE } from '../../apps/panel/src/modules/api-keys/api-keys.service.ts';
import { nodeAndEgg, serverRow } from '../../apps/panel/src/test-support/fixtures.ts';
import { startTestPanel } from '../../apps/panel/src/test-support/panel.ts';

const count = Number(process.argv[2] ?? 50);
const panel = await startTestPanel({ APP_API_CLIENT_RATELIMIT: '100000000' });
const user = await panel.createUser({ username: 'bench', email: 'bench@example.com' });
const { node, egg } = await nodeAndEgg(panel.ctx, [46000, 46000 + count - 1]);
for (let i = 0; i < count; i++) await serverRow(panel.ctx, node, egg, user.id, { name: `Bench ${i}` });
const { key, secret } = await panel.ctx.services.apiKeys.create(user, KEY_TYPE.client, { description: 'bench' });
console.log(JSON.stringify({ url: panel.url, token: key.identifier + secret }));
process.on('SIGTERM', () => {
  void panel.close().then(() => process.exit(0));
});
