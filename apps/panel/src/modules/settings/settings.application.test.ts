import { mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pino } from 'pino';
import { mailTestResponseSchema, panelSettingsResponseSchema } from '@talon/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bootstrap } from '../../bootstrap.ts';
import type { User } from '../../db/types.ts';
import { decrypt } from '../../lib/crypto.ts';
import { expectError, firstError, TestClient, type Res } from '../../test-support/client.ts';
import { nodeAndEgg, serverRow } from '../../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../../test-support/panel.ts';
import { mailText, startSmtpServer } from '../../test-support/smtp.ts';
import { everyKeyOf } from '../application/testing.ts';
import { SET_BY_ENVIRONMENT } from './settings.service.ts';

// The panel settings of the admin Settings screen (docs/api.md "Panel settings"): stored in the
// database, an environment variable wins, and the consumers (mailer, reCAPTCHA, two-factor, site
// name, client allocations) use what is in effect. Mail goes to a real SMTP server on loopback.

const URL_ = '/api/application/settings';
const MAIL_TEST = '/api/application/settings/mail/test';
const NOT_ADMIN = 'This account does not have permission to access the API.';

const DEFAULTS = {
  app_name: 'Talon',
  two_factor: 'none',
  recaptcha: { enabled: false, site_key: '', secret_key_set: false },
  mail: {
    host: null,
    port: 587,
    encryption: 'tls',
    username: null,
    password_set: false,
    from_address: 'no-reply@localhost',
    from_name: null,
  },
  client_allocations: { enabled: false, range_start: null, range_end: null },
  avatars: { remote: false },
};

let panel: TestPanel;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
let admin: User;
let adminClient: TestClient;
let userClient: TestClient;

const settingsRows = () => panel.ctx.db.db.selectFrom('settings').selectAll().orderBy('key').execute();
/** Everything a refused request must leave as it was: the answer of GET and the stored rows. */
const snapshot = async () => ({
  view: (await adminClient.get(URL_)).body as unknown,
  rows: await settingsRows(),
});

/** A loopback port nothing listens on. */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 1));
    });
  });
}

function expectInvalid(res: Res, field: string, detail?: string) {
  expect(res.status, res.text).toBe(422);
  const error = firstError(res);
  expect(error.code).toBe('ValidationException');
  expect(error.status).toBe('422');
  expect(error.meta?.source_field).toBe(field);
  if (detail) expect(error.detail).toBe(detail);
}

beforeAll(async () => {
  smtp = await startSmtpServer({ refuseRecipient: '@refused.example.com' });
  panel = await startTestPanel();
  admin = await panel.createUser({ admin: true, email: 'root@example.com' });
  adminClient = await panel.signedIn(admin);
  userClient = await panel.signedIn(await panel.createUser());
});
afterAll(async () => {
  await panel?.close();
  await smtp?.close();
});

describe('GET /api/application/settings', () => {
  it('answers the defaults on a fresh panel, nothing set by environment', async () => {
    const res = await adminClient.get(URL_);
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({ object: 'settings', attributes: DEFAULTS, meta: { environment: [] } });
    // The shape the web app reads (packages/shared) is the one answered.
    expect(panelSettingsResponseSchema.parse(res.body)).toEqual(res.body);
  });

  it('refuses a guest (401), a non-admin (403) and any API key, even a full one (403)', async () => {
    expectError(
      await new TestClient(panel.url).get(URL_),
      401,
      'AuthenticationException',
      'Unauthenticated.',
    );
    expectError(await userClient.get(URL_), 403, 'AccessDeniedHttpException', NOT_ADMIN);
    for (const key of await everyKeyOf(panel, admin)) {
      expectError(await key.get(URL_), 403, 'AccessDeniedHttpException', 'This action is unauthorized.');
    }
  });
});

describe('PATCH /api/application/settings', () => {
  it('refuses a guest, a non-admin, any API key and a session without the XSRF header; nothing changes', async () => {
    const before = await snapshot();
    const body = { app_name: 'Changed' };
    expect((await new TestClient(panel.url).request('PATCH', URL_, body)).status).toBe(401);
    expectError(await userClient.request('PATCH', URL_, body), 403, 'AccessDeniedHttpException', NOT_ADMIN);
    for (const key of await everyKeyOf(panel, admin)) {
      expectError(
        await key.request('PATCH', URL_, body),
        403,
        'AccessDeniedHttpException',
        'This action is unauthorized.',
      );
    }
    const noXsrf = await panel.signedIn(admin);
    noXsrf.sendXsrf = false;
    expectError(await noXsrf.request('PATCH', URL_, body), 419, 'HttpException', 'CSRF token mismatch.');
    expect(await snapshot()).toEqual(before);
  });

  it.each([
    ['app_name', { app_name: '' }],
    ['app_name', { app_name: 'x'.repeat(192) }],
    ['two_factor', { two_factor: 'sometimes' }],
    ['recaptcha.enabled', { recaptcha: { enabled: 'perhaps' } }],
    ['mail.port', { mail: { port: 0 } }],
    ['mail.port', { mail: { port: 70000 } }],
    ['mail.port', { mail: { port: 'smtp' } }],
    ['mail.encryption', { mail: { encryption: 'starttls' } }],
    ['mail.from_address', { mail: { from_address: 'not an address' } }],
    ['mail.from_address', { mail: { from_address: '' } }],
    ['mail.from_address', { mail: { from_address: 'no-reply@' } }],
    ['mail.from_address', { mail: { from_address: '@localhost' } }],
    ['mail.from_address', { mail: { from_address: 'no-reply@-localhost' } }],
    ['mail.from_address', { mail: { from_address: 'no-reply@local_host' } }],
    ['mail.from_address', { mail: { from_address: 'no-reply@localhost.' } }],
    ['mail.from_address', { mail: { from_address: 'a@b@localhost' } }],
    ['mail.host', { mail: { host: ['a'] } }],
    ['client_allocations.enabled', { client_allocations: { enabled: null } }],
    ['avatars.remote', { avatars: { remote: 'perhaps' } }],
    ['avatars.remote', { avatars: { remote: null } }],
    ['client_allocations.range_start', { client_allocations: { range_start: 80 } }],
    ['client_allocations.range_end', { client_allocations: { range_end: 65536 } }],
    ['client_allocations.range_end', { client_allocations: { range_start: 30010, range_end: 30000 } }],
    ['recaptcha.site_key', { recaptcha: { enabled: true, secret_key: 'secret' } }],
    ['recaptcha.secret_key', { recaptcha: { enabled: true, site_key: 'site' } }],
  ])(
    'answers 422 on %s for %j and changes nothing, not even the valid fields sent with it',
    async (field, bad) => {
      const before = await snapshot();
      const res = await adminClient.request('PATCH', URL_, { two_factor: 'admins', ...bad });
      expectInvalid(res, field);
      expect(await snapshot()).toEqual(before);
    },
  );

  it('saves the whole form of a fresh panel as it is: its own default sender no-reply@localhost (a single-label domain, valid for local delivery)', async () => {
    const fresh = (await adminClient.get(URL_)).body.attributes;
    expect(fresh.mail.from_address).toBe('no-reply@localhost');
    const { password_set: _password, ...mail } = fresh.mail;
    const { secret_key_set: _secret, ...recaptcha } = fresh.recaptcha;
    const res = await adminClient.request('PATCH', URL_, {
      ...fresh,
      recaptcha,
      mail,
      app_name: 'Fresh Panel',
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.mail.from_address).toBe('no-reply@localhost');
    expect(res.body.attributes.app_name).toBe('Fresh Panel');
    for (const sender of ['panel@mailhost', 'Panel.Mail+x@mail-1', 'panel@example.com']) {
      const changed = await adminClient.request('PATCH', URL_, { mail: { from_address: sender } });
      expect(changed.status, changed.text).toBe(200);
      expect(changed.body.attributes.mail.from_address).toBe(sender);
    }
    await adminClient.request('PATCH', URL_, {
      app_name: 'Talon',
      mail: { from_address: 'no-reply@localhost' },
    });
  });

  it('stores a partial change, answers the whole settings and never the secrets', async () => {
    const res = await adminClient.request('PATCH', URL_, {
      app_name: 'Gryphon Hosting',
      mail: {
        host: '127.0.0.1',
        port: smtp.port,
        encryption: 'none',
        username: 'mailer',
        password: 'hunter2-mail-secret',
        from_address: 'panel@gryphon.example.com',
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      object: 'settings',
      attributes: {
        ...DEFAULTS,
        app_name: 'Gryphon Hosting',
        mail: {
          host: '127.0.0.1',
          port: smtp.port,
          encryption: 'none',
          username: 'mailer',
          password_set: true,
          from_address: 'panel@gryphon.example.com',
          from_name: null,
        },
      },
      meta: { environment: [] },
    });
    expect(res.text).not.toContain('hunter2-mail-secret');
    expect((await adminClient.get(URL_)).body).toEqual(res.body);

    // Encrypted at rest with the app key; the activity entry names the fields, not their values.
    const stored = (await settingsRows()).find((r) => r.key === 'settings:mail.password');
    expect(stored?.value).not.toContain('hunter2');
    expect(decrypt(panel.ctx.config.appKey, JSON.parse(stored!.value) as string)).toBe('hunter2-mail-secret');
    const entry = await panel.ctx.db.db
      .selectFrom('activity_logs')
      .selectAll()
      .where('event', '=', 'admin:settings.update')
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry.properties).not.toContain('hunter2');
    expect(JSON.parse(entry.properties)).toEqual({
      fields: [
        'app_name',
        'mail.host',
        'mail.port',
        'mail.encryption',
        'mail.username',
        'mail.password',
        'mail.from_address',
      ],
    });
    expect(entry.actor_id).toBe(admin.id);
  });

  it('keeps the stored password when it is sent empty, and clears it only with password_clear', async () => {
    await adminClient.request('PATCH', URL_, { mail: { password: 'kept-secret' } });
    const empty = await adminClient.request('PATCH', URL_, { mail: { password: '', username: 'mailer' } });
    expect(empty.body.attributes.mail.password_set).toBe(true);
    expect((await panel.ctx.services.settings.effective()).mail.password).toBe('kept-secret');
    const cleared = await adminClient.request('PATCH', URL_, { mail: { password_clear: true } });
    expect(cleared.body.attributes.mail.password_set).toBe(false);
    expect((await settingsRows()).some((r) => r.key === 'settings:mail.password')).toBe(false);
    await adminClient.request('PATCH', URL_, { mail: { username: null } });
  });
});

describe('the settings in effect', () => {
  it('send mail through the SMTP server and with the site name set on the Settings screen', async () => {
    await adminClient.request('PATCH', URL_, {
      app_name: 'Wyvern Hosting',
      mail: {
        host: '127.0.0.1',
        port: smtp.port,
        encryption: 'none',
        from_address: 'panel@wyvern.example.com',
      },
    });
    const user = await panel.createUser({ email: 'forgetful@example.com' });
    const guest = new TestClient(panel.url);
    await guest.get('/sanctum/csrf-cookie');
    const sent = smtp.mails.length;
    expect((await guest.post('/auth/password', { email: user.email })).status).toBe(200);
    await expect.poll(() => smtp.mails.length).toBe(sent + 1);
    const mail = mailText(smtp.mails.at(-1)!.raw);
    expect(smtp.mails.at(-1)!.to).toEqual(['forgetful@example.com']);
    expect(mail).toContain('Subject: Wyvern Hosting: reset your password');
    expect(mail).toMatch(/From: "?Wyvern Hosting"? <panel@wyvern\.example\.com>/u);
  });

  it('require two-factor from everyone when set so (and from nobody again after)', async () => {
    expect((await userClient.get('/api/client')).status).toBe(200);
    expect((await adminClient.request('PATCH', URL_, { two_factor: 'everyone' })).status).toBe(200);
    const refused = await userClient.get('/api/client');
    expect(refused.status).toBe(400);
    expect(firstError(refused).code).toBe('TwoFactorAuthRequiredException');
    expect(
      (
        await panel.ctx.db.db
          .selectFrom('settings')
          .select('value')
          .where('key', '=', 'auth:2fa_required')
          .executeTakeFirst()
      )?.value,
    ).toBe('2');
    // The admin has no two-factor either: this request is exempt (it is how they would set it up).
    const admins = await panel.signedIn(admin);
    expect((await admins.get('/api/client/account')).status).toBe(200);
    await panel.ctx.db.db
      .updateTable('settings')
      .set({ value: '0' })
      .where('key', '=', 'auth:2fa_required')
      .execute();
    panel.ctx.services.settings.effective.forget();
    expect((await userClient.get('/api/client')).status).toBe(200);
  });

  it('check reCAPTCHA on sign-in once an admin turns it on', async () => {
    const guest = new TestClient(panel.url);
    await guest.get('/sanctum/csrf-cookie');
    const user = await panel.createUser({ password: 'correct horse battery' });
    const res = await adminClient.request('PATCH', URL_, {
      recaptcha: { enabled: true, site_key: 'site-key-1', secret_key: 'recaptcha-secret-1' },
    });
    expect(res.body.attributes.recaptcha).toEqual({
      enabled: true,
      site_key: 'site-key-1',
      secret_key_set: true,
    });
    expect(res.text).not.toContain('recaptcha-secret-1');
    // Encrypted at rest with the app key, like the mail password.
    const stored = (await settingsRows()).find((r) => r.key === 'settings:recaptcha.secret_key');
    expect(stored?.value).not.toContain('recaptcha-secret-1');
    expect(decrypt(panel.ctx.config.appKey, JSON.parse(stored!.value) as string)).toBe('recaptcha-secret-1');
    try {
      expectError(
        await guest.post('/auth/login', { user: user.username, password: 'correct horse battery' }),
        400,
        'HttpException',
        'Failed to validate reCAPTCHA data.',
      );
    } finally {
      await adminClient.request('PATCH', URL_, { recaptcha: { enabled: false } });
    }
    expect(
      (await guest.post('/auth/login', { user: user.username, password: 'correct horse battery' })).status,
    ).toBe(200);
  });

  it('let server users add allocations in the range an admin sets', async () => {
    const { node, egg } = await nodeAndEgg(panel.ctx, [44710, 44710]);
    const owner = await panel.createUser();
    const server = await serverRow(panel.ctx, node, egg, owner.id, { allocation_limit: 3 });
    const ownerClient = await panel.signedIn(owner);
    const path = `/api/client/servers/${server.uuid_short}/network/allocations`;
    const off = await ownerClient.post(path);
    expect(off.status).toBe(400);
    expect(firstError(off).code).toBe('AutoAllocationNotEnabledException');

    const res = await adminClient.request('PATCH', URL_, {
      client_allocations: { enabled: true, range_start: 44720, range_end: 44721 },
    });
    expect(res.body.attributes.client_allocations).toEqual({
      enabled: true,
      range_start: 44720,
      range_end: 44721,
    });
    const made = await ownerClient.post(path);
    expect(made.status, made.text).toBe(200);
    expect([44720, 44721]).toContain(made.body.attributes.port);
  });
});

describe('another panel on the same database', () => {
  it('uses a change made here within the cache time, secrets included', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'talon-data-'));
    const other = await bootstrap({
      log: pino({ level: 'silent' }),
      env: {
        DATA_DIR: dataDir,
        DATABASE_URL: panel.ctx.config.databaseUrl,
        APP_KEY: `base64:${panel.ctx.config.appKey.toString('base64')}`,
      },
    });
    try {
      expect((await other.services.settings.effective()).appName).not.toBe('Kestrel Hosting');
      await adminClient.request('PATCH', URL_, {
        app_name: 'Kestrel Hosting',
        mail: { password: 'shared-secret' },
      });
      await expect
        .poll(async () => (await other.services.settings.effective()).appName, {
          timeout: 15_000,
          interval: 250,
        })
        .toBe('Kestrel Hosting');
      expect((await other.services.settings.effective()).mail.password).toBe('shared-secret');
    } finally {
      await other.db.close();
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('the web app', () => {
  it('gets the site name, reCAPTCHA and client allocations in effect in its page', async () => {
    await adminClient.request('PATCH', URL_, {
      app_name: 'Shell & Co',
      recaptcha: { enabled: true, site_key: 'shell-site-key', secret_key: 'shell-secret' },
      client_allocations: { enabled: true },
    });
    try {
      const html = (await new TestClient(panel.url).get('/auth/login')).text;
      const site = /window\.SiteConfiguration = (\{.*?\});/u.exec(html)?.[1];
      expect(JSON.parse(site!)).toEqual({
        name: 'Shell & Co',
        locale: 'en',
        recaptcha: { enabled: true, siteKey: 'shell-site-key' },
        clientAllocations: { enabled: true },
        remoteAvatars: false,
      });
      expect(html).toContain('<title>Shell &#38; Co</title>');
      expect(html).not.toContain('shell-secret');
    } finally {
      await adminClient.request('PATCH', URL_, { recaptcha: { enabled: false } });
    }
  });
});

describe('POST /api/application/settings/mail/test', () => {
  it('sends a mail to the admin by default and answers the SMTP server’s final answer', async () => {
    await adminClient.request('PATCH', URL_, {
      mail: { host: '127.0.0.1', port: smtp.port, encryption: 'none', password_clear: true },
    });
    const sent = smtp.mails.length;
    const res = await adminClient.post(MAIL_TEST);
    expect(res.status, res.text).toBe(200);
    expect(res.body.object).toBe('mail_test');
    expect(res.body.attributes.ok).toBe(true);
    expect(res.body.attributes.response).toMatch(/^250 /u);
    expect(mailTestResponseSchema.parse(res.body)).toEqual(res.body);
    expect(smtp.mails.length).toBe(sent + 1);
    expect(smtp.mails.at(-1)!.to).toEqual(['root@example.com']);

    const other = await adminClient.post(MAIL_TEST, { to: 'someone@example.com' });
    expect(other.status).toBe(200);
    expect(smtp.mails.at(-1)!.to).toEqual(['someone@example.com']);
  });

  it('answers 502 with the server’s refusal', async () => {
    const res = await adminClient.post(MAIL_TEST, { to: 'nobody@refused.example.com' });
    expectError(res, 502, 'MailTransportException', '550 5.1.1 No such mailbox here');
  });

  it('answers 502 in words when the mail server cannot be reached', async () => {
    const port = await closedPort();
    await adminClient.request('PATCH', URL_, { mail: { port } });
    try {
      const res = await adminClient.post(MAIL_TEST);
      expect(res.status, res.text).toBe(502);
      expect(firstError(res).code).toBe('MailTransportException');
      expect(firstError(res).detail).toMatch(
        new RegExp(`^Could not connect to the mail server at 127\\.0\\.0\\.1:${port}: .*ECONNREFUSED`, 'u'),
      );
    } finally {
      await adminClient.request('PATCH', URL_, { mail: { port: smtp.port } });
    }
  });

  it('answers 502 in words, not never, when the mail server accepts the connection and stays silent', async () => {
    const sockets: Socket[] = [];
    const silent = createServer((socket) => sockets.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
    const port = (silent.address() as AddressInfo).port;
    await adminClient.request('PATCH', URL_, { mail: { host: '127.0.0.1', port, encryption: 'none' } });
    try {
      const res = await adminClient.post(MAIL_TEST);
      expect(res.status, res.text).toBe(502);
      expect(firstError(res).detail).toMatch(
        new RegExp(`^The mail server at 127\\.0\\.0\\.1:${port} did not answer in time`, 'u'),
      );
      expect(sockets.length).toBe(1);
    } finally {
      for (const socket of sockets) socket.destroy();
      silent.close();
      await adminClient.request('PATCH', URL_, { mail: { port: smtp.port } });
    }
  }, 30_000);

  it('answers 502 when no mail server is set', async () => {
    await adminClient.request('PATCH', URL_, { mail: { host: null } });
    try {
      expectError(
        await adminClient.post(MAIL_TEST),
        502,
        'MailTransportException',
        'No mail server is set: enter the SMTP host and save first.',
      );
    } finally {
      await adminClient.request('PATCH', URL_, { mail: { host: '127.0.0.1' } });
    }
  });

  it('answers 422 for a bad address, 401/403 to others and to keys, 419 without XSRF; sends nothing', async () => {
    const sent = smtp.mails.length;
    expectInvalid(await adminClient.post(MAIL_TEST, { to: 'not an address' }), 'to');
    expect((await new TestClient(panel.url).post(MAIL_TEST)).status).toBe(401);
    expectError(await userClient.post(MAIL_TEST), 403, 'AccessDeniedHttpException', NOT_ADMIN);
    for (const key of await everyKeyOf(panel, admin)) {
      expectError(
        await key.post(MAIL_TEST),
        403,
        'AccessDeniedHttpException',
        'This action is unauthorized.',
      );
    }
    const noXsrf = await panel.signedIn(admin);
    noXsrf.sendXsrf = false;
    expect((await noXsrf.post(MAIL_TEST)).status).toBe(419);
    expect(smtp.mails.length).toBe(sent);
  });
});

describe('settings set by environment variables', () => {
  let envPanel: TestPanel;
  let envAdmin: TestClient;
  let envSmtp: Awaited<ReturnType<typeof startSmtpServer>>;

  beforeAll(async () => {
    envSmtp = await startSmtpServer();
    envPanel = await startTestPanel({
      APP_NAME: 'Env Hosting',
      MAIL_HOST: '127.0.0.1',
      MAIL_PORT: String(envSmtp.port),
      MAIL_ENCRYPTION: 'none',
      MAIL_PASSWORD: 'env-mail-secret',
      PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'true',
    });
    envAdmin = await envPanel.signedIn(await envPanel.createUser({ admin: true }));
  });
  afterAll(async () => {
    await envPanel?.close();
    await envSmtp?.close();
  });

  it('win over the database and are listed read-only in meta.environment', async () => {
    // A value stored before (another panel, or before the variable was set) is not in effect.
    await envPanel.ctx.repositories.settings.set('settings:app_name', 'Stored Name');
    envPanel.ctx.services.settings.effective.forget();
    const res = await envAdmin.get(URL_);
    expect(res.status).toBe(200);
    expect(res.body.meta.environment).toEqual([
      'app_name',
      'mail.host',
      'mail.port',
      'mail.encryption',
      'mail.password',
      'client_allocations.enabled',
    ]);
    expect(res.body.attributes.app_name).toBe('Env Hosting');
    expect(res.body.attributes.mail).toMatchObject({
      host: '127.0.0.1',
      port: envSmtp.port,
      password_set: true,
    });
    expect(res.body.attributes.client_allocations.enabled).toBe(true);
    expect(res.text).not.toContain('env-mail-secret');
  });

  it.each([
    ['app_name', { app_name: 'Another Name' }],
    ['mail.port', { mail: { port: 2525 } }],
    ['mail.password', { mail: { password: 'new-secret' } }],
    ['mail.password', { mail: { password_clear: true } }],
    ['client_allocations.enabled', { client_allocations: { enabled: false } }],
  ])('answer 422 on %s when a change is attempted, and nothing changes', async (field, body) => {
    const before = await envPanel.ctx.db.db.selectFrom('settings').selectAll().orderBy('key').execute();
    const res = await envAdmin.request('PATCH', URL_, { mail: { from_name: 'Kept out' }, ...body });
    expectInvalid(res, field, SET_BY_ENVIRONMENT);
    expect(await envPanel.ctx.db.db.selectFrom('settings').selectAll().orderBy('key').execute()).toEqual(
      before,
    );
  });

  it('accept the value the environment already gives (a form sends every field) and change the others', async () => {
    const res = await envAdmin.request('PATCH', URL_, {
      app_name: 'Env Hosting',
      mail: { host: '127.0.0.1', from_name: 'Env Mailer' },
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.attributes.mail.from_name).toBe('Env Mailer');
    const test = await envAdmin.post(MAIL_TEST, { to: 'check@example.com' });
    expect(test.status, test.text).toBe(200);
    expect(mailText(envSmtp.mails.at(-1)!.raw)).toMatch(/From: "?Env Mailer"? </u);
  });
});
