import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestClient } from '../test-support/client.ts';
import { startTestPanel, type TestPanel } from '../test-support/panel.ts';

let panel: TestPanel;
const NAME = 'Evil</script><script>alert(1)</script>';

beforeAll(async () => {
  panel = await startTestPanel({ APP_NAME: NAME });
});
afterAll(async () => {
  await panel.close();
});

/** The value assigned to `window.<name>` in the page. */
function injected(html: string, name: string): unknown {
  const m = new RegExp(`window\\.${name} = (\\{.*?\\});`, 'u').exec(html);
  return m ? (JSON.parse(m[1]!) as unknown) : undefined;
}

describe('the HTML shell', () => {
  it('serves / and /auth/login to a guest with the site configuration and the CSRF meta tag', async () => {
    for (const path of ['/', '/auth/login', '/auth/password/reset/abc?email=a%40b.c', '/account/api']) {
      const client = new TestClient(panel.url);
      const res = await client.get(path);
      expect(res.status, path).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/u);
      const html = res.text;
      expect(injected(html, 'SiteConfiguration')).toEqual({
        name: NAME,
        locale: 'en',
        recaptcha: { enabled: false, siteKey: '' },
        clientAllocations: { enabled: false },
        // Off by default (issue 24): initials, and no avatar service in the page's img-src.
        remoteAvatars: false,
      });
      expect(injected(html, 'PterodactylUser')).toBeUndefined();
      const meta = /<meta name="csrf-token" content="([A-Za-z0-9]+)">/u.exec(html);
      expect(meta?.[1]).toBe(client.cookies.get('XSRF-TOKEN'));
    }
  });

  it('injects the signed-in user without id or secrets and redirects away from /auth pages', async () => {
    const user = await panel.createUser();
    await panel.ctx.repositories.users.update(user.id, {
      name_first: '</script><img src=x onerror=alert(1)>',
    });
    const client = await panel.signedIn(user);
    const res = await client.get('/account');
    expect(res.status).toBe(200);
    const injectedUser = injected(res.text, 'PterodactylUser') as Record<string, unknown>;
    expect(Object.keys(injectedUser)).toEqual([
      'uuid',
      'username',
      'email',
      'name_first',
      'name_last',
      'language',
      'root_admin',
      'use_totp',
      'gravatar',
      'created_at',
      'updated_at',
    ]);
    expect(injectedUser).toMatchObject({
      uuid: user.uuid,
      username: user.username,
      root_admin: false,
      use_totp: false,
    });
    expect(injectedUser.name_first).toBe('</script><img src=x onerror=alert(1)>');
    expect(injectedUser.created_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.000000Z$/u);
    expect(res.text).not.toContain('argon2');
    const login = await client.get('/auth/login');
    expect(login.status).toBe(302);
    expect(login.headers.get('location')).toBe('/');
  });

  it('keeps names from breaking out of the script or the title', async () => {
    const user = await panel.createUser();
    await panel.ctx.repositories.users.update(user.id, { name_last: '</script><script>alert(2)</script>' });
    const html = (await (await panel.signedIn(user)).get('/')).text;
    expect(html).not.toContain('<script>alert');
    expect(html).not.toContain('</script><img');
    expect(html.match(/<\/script>/gu)?.length).toBe(1);
    const title = /<title>(.*?)<\/title>/u.exec(html)?.[1];
    expect(title).not.toMatch(/[<>]/u);
  });

  it('injects names with replacement patterns and line separators exactly as typed', async () => {
    // `$'`, `$&` and `$\`` mean something to String.prototype.replace; U+2028/2029 end lines in old
    // JavaScript parsers.
    const odd = "$' $& $` $$ \u2028\u2029 \\ </SCRIPT> <!-- --> ]]>";
    const user = await panel.createUser();
    await panel.ctx.repositories.users.update(user.id, { name_first: odd, name_last: "$'" });
    const html = (await (await panel.signedIn(user)).get('/account')).text;
    const injectedUser = injected(html, 'PterodactylUser') as Record<string, unknown>;
    expect(injectedUser.name_first).toBe(odd);
    expect(injectedUser.name_last).toBe("$'");
    expect(html).not.toMatch(/[\u2028\u2029]/u);
    expect(html.match(/<\/script>/giu)?.length).toBe(1);
    // The site configuration still comes once, right after the meta tag (no text spliced in twice).
    expect(html.match(/window\.SiteConfiguration = /gu)?.length).toBe(1);
  });

  it('shows a site name with markup in the title as typed (escaped, not stripped)', async () => {
    const html = (await new TestClient(panel.url).get('/')).text;
    expect(/<title>(.*?)<\/title>/u.exec(html)?.[1]).toBe(
      'Evil&#60;/script&#62;&#60;script&#62;alert(1)&#60;/script&#62;',
    );
  });

  it('answers unknown API paths with JSON 404s, not the page', async () => {
    for (const path of ['/api/nothing', '/api/client/servers/abcd1234/nothing', '/daemon/x']) {
      const res = await new TestClient(panel.url).get(path);
      expect(res.status, path).toBe(404);
      expect(res.body.errors[0].code).toBe('NotFoundHttpException');
    }
    expect((await new TestClient(panel.url).get('/locales/en/..%2F..%2Fsecret.json')).status).toBe(404);
  });
});

describe('client allocations in the site configuration', () => {
  it('tells the web app when PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED is on', async () => {
    const enabled = await startTestPanel({ PTERODACTYL_CLIENT_ALLOCATIONS_ENABLED: 'true' });
    try {
      const res = await new TestClient(enabled.url).get('/');
      expect(injected(res.text, 'SiteConfiguration')).toMatchObject({ clientAllocations: { enabled: true } });
    } finally {
      await enabled.close();
    }
  });
});
