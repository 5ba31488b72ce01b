import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientUserAttributes } from '../modules/users/users.presenter.ts';
import { TestClient } from '../test-support/client.ts';
import { nodeAndEgg } from '../test-support/fixtures.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

/** The directives of a Content-Security-Policy header, by name. */
export function directives(header: string | null): Map<string, string[]> {
  const map = new Map<string, string[]>();
  for (const part of (header ?? '').split(';')) {
    const [name, ...values] = part.trim().split(/\s+/u);
    if (name) map.set(name, values);
  }
  return map;
}

describe('security headers over http', () => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startTestPanel();
  });
  afterAll(async () => {
    await panel.close();
  });

  it('forbids framing and sniffing and limits referrers on pages and API answers, without HSTS', async () => {
    for (const path of ['/', '/auth/login', '/api/client/account', '/sanctum/csrf-cookie', '/api/nothing']) {
      const res = await new TestClient(panel.url).get(path);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('x-frame-options'), path).toBe('DENY');
      expect(res.headers.get('referrer-policy'), path).toBe('strict-origin-when-cross-origin');
      expect(directives(res.headers.get('content-security-policy')).get('frame-ancestors'), path).toEqual([
        "'none'",
      ]);
      expect(res.headers.get('strict-transport-security'), path).toBeNull();
    }
  });

  it('gives API answers a policy that loads nothing', async () => {
    const res = await new TestClient(panel.url).get('/api/client/account');
    expect(directives(res.headers.get('content-security-policy')).get('default-src')).toEqual(["'none'"]);
    expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
  });

  it('keeps API answers out of every cache: they carry new keys, setup tokens and node secrets', async () => {
    const admin = await panel.createUser({ admin: true });
    const client = await panel.signedIn(admin);
    for (const path of ['/api/client/account', '/api/application/settings', '/api/nothing']) {
      const res = await client.get(path);
      expect(res.status, path).toBe(path === '/api/nothing' ? 404 : 200);
      expect(res.headers.get('cache-control'), path).toBe('no-store');
    }
    // Pages and their assets decide for themselves (the shell is no-store, assets are cached).
    const asset = await new TestClient(panel.url).get('/locales/en/common.json');
    expect(asset.headers.get('cache-control')).not.toBe('no-store');
  });

  it('lets pages load the avatar pictures the API links to only once an admin turns remote avatars on', async () => {
    const user = await panel.createUser();
    const image = new URL(clientUserAttributes(user).image);
    const imageSources = async () => {
      const page = await new TestClient(panel.url).get('/auth/login');
      const site = JSON.parse(/window\.SiteConfiguration = (\{.*?\});/u.exec(page.text)![1]!) as {
        remoteAvatars: boolean;
      };
      return {
        remote: site.remoteAvatars,
        allowed: directives(page.headers.get('content-security-policy')).get('img-src')!,
      };
    };
    // Off by default: the page shows initials and its policy names no avatar service.
    const off = await imageSources();
    expect(off.remote).toBe(false);
    expect(off.allowed).toEqual(["'self'", 'data:']);

    const admin = await panel.signedIn(await panel.createUser({ admin: true }));
    const on = await admin.request('PATCH', '/api/application/settings', { avatars: { remote: true } });
    expect(on.status, on.text).toBe(200);
    expect(on.body.attributes.avatars).toEqual({ remote: true });
    try {
      const now = await imageSources();
      expect(now.remote).toBe(true);
      expect(now.allowed).toContain(image.origin);
    } finally {
      await admin.request('PATCH', '/api/application/settings', { avatars: { remote: false } });
    }
    expect((await imageSources()).allowed).not.toContain(image.origin);
  });

  it('gives pages their own browsing context group and no DNS prefetching', async () => {
    const page = await new TestClient(panel.url).get('/auth/login');
    expect(page.headers.get('cross-origin-opener-policy')).toBe('same-origin');
    expect(page.headers.get('origin-agent-cluster')).toBe('?1');
    expect(page.headers.get('x-dns-prefetch-control')).toBe('off');
  });

  it('lets pages load only their own scripts plus the one inline script carrying this answer’s nonce', async () => {
    const a = await new TestClient(panel.url).get('/auth/login');
    const b = await new TestClient(panel.url).get('/auth/login');
    const csp = directives(a.headers.get('content-security-policy'));
    const script = csp.get('script-src')!;
    expect(script).toContain("'self'");
    expect(script).not.toContain("'unsafe-inline'");
    expect(script).not.toContain("'unsafe-eval'");
    const nonce = /^'nonce-([A-Za-z0-9+/=]+)'$/u.exec(script.find((s) => s.startsWith("'nonce-")) ?? '')?.[1];
    expect(nonce).toBeDefined();
    expect(a.text).toContain(`<script nonce="${nonce}">`);
    expect(b.headers.get('content-security-policy')).not.toContain(nonce);
    expect(csp.get('object-src')).toEqual(["'none'"]);
    expect(csp.get('base-uri')).toEqual(["'none'"]);
    // No captcha configured: no Google origins.
    expect(a.headers.get('content-security-policy')).not.toContain('google');
  });

  it('lets pages connect to every node’s daemon (websocket and file transfers)', async () => {
    const { node } = await nodeAndEgg(panel.ctx, [41000, 41001]);
    await panel.ctx.repositories.nodes.update(node.id, { fqdn: 'node-one.example.com', scheme: 'https' });
    const res = await new TestClient(panel.url).get('/');
    const connect = directives(res.headers.get('content-security-policy')).get('connect-src')!;
    expect(connect).toEqual(
      expect.arrayContaining([
        "'self'",
        `https://node-one.example.com:${node.daemon_listen}`,
        `wss://node-one.example.com:${node.daemon_listen}`,
      ]),
    );
  });
});

describe('security headers over https', () => {
  let panel: TestPanel;
  beforeAll(async () => {
    panel = await startTestPanel({
      APP_URL: 'https://panel.example.com',
      RECAPTCHA_ENABLED: 'true',
      RECAPTCHA_SITE_KEY: 'site-key',
      RECAPTCHA_SECRET_KEY: 'secret-key',
    });
  });
  afterAll(async () => {
    await panel.close();
  });

  it('sends HSTS when APP_URL is https, and lets the captcha load when it is enabled', async () => {
    const res = await new TestClient(panel.url).get('/auth/login');
    expect(res.headers.get('strict-transport-security')).toMatch(/^max-age=\d{7,}/u);
    const csp = directives(res.headers.get('content-security-policy'));
    expect(csp.get('script-src')).toEqual(expect.arrayContaining(['https://www.google.com/recaptcha/']));
    expect(csp.get('frame-src')).toEqual(expect.arrayContaining(['https://www.google.com/recaptcha/']));
  });
});
