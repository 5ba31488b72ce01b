import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import type { SshKey } from '../../db/types.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item, list } from '../../http/envelope.ts';
import { fieldError } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { atom, nowIso } from '../../lib/time.ts';
import { parseSshPublicKey } from './ssh-key-parser.ts';

const present = (k: SshKey) => ({
  name: k.name,
  fingerprint: k.fingerprint,
  public_key: k.public_key,
  created_at: atom(k.created_at),
});

/** SSH keys of the caller, used to sign in to SFTP. */
export function sshKeyRoutes(app: FastifyInstance, ctx: AppContext) {
  const { repositories, services } = ctx;

  app.get('/api/client/account/ssh-keys', async (req) =>
    list('ssh_key', (await repositories.sshKeys.listForUser(requireActor(req).user.id)).map(present)),
  );

  app.post('/api/client/account/ssh-keys', async (req) => {
    const { user } = requireActor(req);
    const body = check<{ name: string; public_key: string }>(req.body, {
      name: 'required|string|max:191',
      public_key: 'required|string',
    });
    const parsed = parseSshPublicKey(body.public_key);
    if (typeof parsed === 'string') throw fieldError('public_key', parsed);
    if (await repositories.sshKeys.fingerprintExists(user.id, parsed.fingerprint)) {
      throw fieldError('public_key', 'The public key provided already exists on your account.');
    }
    const now = nowIso();
    const key = await repositories.sshKeys.insert({
      user_id: user.id,
      name: body.name,
      fingerprint: parsed.fingerprint,
      public_key: parsed.pem,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    await services.activity.log('user:ssh-key.create', activityActor(req), [{ type: 'user', id: user.id }], {
      fingerprint: key.fingerprint,
    });
    return item('ssh_key', present(key));
  });

  app.post('/api/client/account/ssh-keys/remove', async (req, reply) => {
    const { user } = requireActor(req);
    const { fingerprint } = check<{ fingerprint: string }>(req.body, { fingerprint: 'required|string' });
    if ((await repositories.sshKeys.softDelete(user.id, fingerprint, nowIso())) > 0) {
      await services.activity.log(
        'user:ssh-key.delete',
        activityActor(req),
        [{ type: 'user', id: user.id }],
        {
          fingerprint,
        },
      );
    }
    return reply.code(204).send();
  });
}
