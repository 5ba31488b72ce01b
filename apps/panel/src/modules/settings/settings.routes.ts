import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.ts';
import { activityActor, requireActor } from '../../http/context.ts';
import { item } from '../../http/envelope.ts';
import { acl } from '../application/acl.ts';
import { settingsAttributes } from './settings.presenter.ts';
import type { EffectiveSettings } from './settings.service.ts';

const present = (s: EffectiveSettings) =>
  item('settings', settingsAttributes(s), { environment: s.environment });

/**
 * /api/application/settings (extension, docs/api.md): the panel settings of the admin Settings
 * screen. A root admin's session only: no API key may read or change the mail settings.
 */
export function applicationSettingsRoutes(app: FastifyInstance, ctx: AppContext) {
  const { settings } = ctx.services;
  const declared = acl('session');

  app.get('/api/application/settings', declared, async () => present(await settings.effective()));

  app.patch('/api/application/settings', declared, async (req) =>
    present(await settings.update(req.body, activityActor(req))),
  );

  app.post('/api/application/settings/mail/test', declared, async (req) => {
    const response = await settings.sendTestMail(req.body, requireActor(req).user);
    return item('mail_test', { ok: true, response });
  });
}
