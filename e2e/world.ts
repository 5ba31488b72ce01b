/**
 * A browser-test "world": the real panel with its local daemon, the people of the test as users,
 * an application API client, Chromium with one page, and servers made for those people. What every
 * server-area browser test sets up first, in one call; `close` takes it all down.
 */
import type { Browser, Page } from 'playwright-core';
import {
  ensureWebBuilt,
  launchBrowser,
  newPage,
  startPanel,
  startSmtp,
  type MailCatcher,
  type Panel,
} from './harness.ts';
import {
  addSubuser,
  applicationApi,
  createServer,
  eggId,
  importEgg,
  userId,
  waitInstalled,
  type AppApi,
  type CreatedServer,
} from './servers.ts';

export interface Person {
  email: string;
  username: string;
  password: string;
  /** a panel administrator (default: a player) */
  admin?: boolean;
}

/** `createServer`'s options with the owner as a person and the egg by name (the built-in game server by default). */
export type ServerOptions = Omit<Parameters<typeof createServer>[1], 'user' | 'egg'> & {
  owner: Person;
  egg?: string;
  /** wait for the install to finish (default true) */
  installed?: boolean;
};

export interface World {
  panel: Panel;
  /** the mail catcher the panel sends to, with `mail: true` */
  mail: MailCatcher | undefined;
  api: AppApi;
  browser: Browser;
  page: Page;
  /** a server of `owner`, installed unless `installed: false` */
  server: (options: ServerOptions) => Promise<CreatedServer>;
  /** makes `person` a subuser of `server` with `permissions` */
  share: (server: CreatedServer, person: Person, permissions: string[]) => Promise<void>;
  close: () => Promise<void>;
}

export async function startWorld(
  options: {
    people: Person[];
    env?: Record<string, string>;
    /** panel environment variables to leave unset (as a fresh install has them) */
    unsetEnv?: string[];
    eggFiles?: string[];
    /** start a mail catcher and point the panel's SMTP at it */
    mail?: boolean;
  } = { people: [] },
): Promise<World> {
  ensureWebBuilt();
  const mail = options.mail ? await startSmtp() : undefined;
  let panel: Panel;
  try {
    panel = await startPanel({ env: options.env, unsetEnv: options.unsetEnv, smtpPort: mail?.port });
  } catch (error) {
    await mail?.close();
    throw error;
  }
  let browser: Browser | undefined;
  try {
    for (const person of options.people) panel.createUser(person);
    for (const file of options.eggFiles ?? []) importEgg(panel, file);
    const api = applicationApi(panel, panel.admin.username);
    browser = await launchBrowser();
    const page = await newPage(browser);
    const opened = browser;
    return {
      panel,
      mail,
      api,
      browser,
      page,
      async server({ owner, egg, installed = true, ...rest }) {
        const created = await createServer(api, {
          ...rest,
          user: await userId(api, owner.username),
          egg: await eggId(api, egg ?? 'Node.js Game Server'),
        });
        if (installed) await waitInstalled(api, created.id);
        return created;
      },
      async share(server, person, permissions) {
        addSubuser(panel, await userId(api, person.username), server.id, permissions);
      },
      async close() {
        await opened.close();
        await panel.stop();
        await mail?.close();
      },
    };
  } catch (error) {
    await browser?.close();
    await panel.stop();
    await mail?.close();
    throw error;
  }
}
