import type { Logger } from 'pino';
import type { Config } from './config/config.ts';
import type { Db } from './db/client.ts';
import { DbThrottle, MemoryThrottle, type ThrottleStore } from './http/throttle.ts';
import { createMailer, type Mailer } from './mail/mailer.ts';
import type { Cached } from './lib/cached.ts';
import { SettingsService } from './modules/settings/settings.service.ts';
import { AccountService } from './modules/account/account.service.ts';
import { ActivityRepository } from './modules/activity/activity.repository.ts';
import { ActivityService } from './modules/activity/activity.service.ts';
import { FilesService } from './modules/files/files.service.ts';
import { StartupService } from './modules/startup/startup.service.ts';
import { ServerSettingsService } from './modules/server-settings/server-settings.service.ts';
import { ApiKeysRepository } from './modules/api-keys/api-keys.repository.ts';
import { ApiKeysService } from './modules/api-keys/api-keys.service.ts';
import { AuthService } from './modules/auth/auth.service.ts';
import { PasswordResetsRepository } from './modules/auth/password-resets.repository.ts';
import { SessionsRepository } from './modules/sessions/sessions.repository.ts';
import { SessionsService } from './modules/sessions/sessions.service.ts';
import { SettingsRepository } from './modules/settings/settings.repository.ts';
import { SshKeysRepository } from './modules/ssh-keys/ssh-keys.repository.ts';
import { RecoveryTokensRepository } from './modules/two-factor/recovery-tokens.repository.ts';
import { TwoFactorService } from './modules/two-factor/two-factor.service.ts';
import { UsersRepository } from './modules/users/users.repository.ts';
import { UsersService } from './modules/users/users.service.ts';
import { WelcomeMail } from './modules/users/welcome-mail.ts';
import { LocationsRepository } from './modules/locations/locations.repository.ts';
import { LocationsService } from './modules/locations/locations.service.ts';
import { AllocationsRepository } from './modules/nodes/allocations.repository.ts';
import { AllocationsService } from './modules/nodes/allocations.service.ts';
import { NodesRepository } from './modules/nodes/nodes.repository.ts';
import { NodesService } from './modules/nodes/nodes.service.ts';
import { ApplicationUsersRepository } from './modules/users/users.application.repository.ts';
import { ApplicationUsersService } from './modules/users/users.application.service.ts';
import { IncludedServers } from './modules/application/included-servers.ts';
import { IncludedServersRepository } from './modules/application/included-servers.repository.ts';
import { EggsRepository } from './modules/eggs/eggs.repository.ts';
import { EggsService } from './modules/eggs/eggs.service.ts';
import { DaemonClient } from './daemon-client/daemon-client.ts';
import { ServersRepository } from './modules/servers/servers.repository.ts';
import { ServersService } from './modules/servers/servers.service.ts';
import { ServerCreationService } from './modules/servers/server-creation.service.ts';
import { ServerManagementService } from './modules/servers/server-management.service.ts';
import { ServerUpdateService } from './modules/servers/server-update.service.ts';
import { NetworkRepository } from './modules/network/network.repository.ts';
import { NetworkService } from './modules/network/network.service.ts';
import { SubusersRepository } from './modules/subusers/subusers.repository.ts';
import { SubusersService } from './modules/subusers/subusers.service.ts';
import { databaseServices } from './modules/databases/databases.wiring.ts';
import { ServerDatabasesRepository } from './modules/databases/databases.repository.ts';
import { BackupsRepository } from './modules/backups/backups.repository.ts';
import { BackupsService } from './modules/backups/backups.service.ts';
import { SchedulesRepository } from './modules/schedules/schedules.repository.ts';
import { SchedulesService } from './modules/schedules/schedules.service.ts';
import { DeauthorizeRepository } from './modules/deauthorize/deauthorize.repository.ts';
import { DeauthorizeService } from './modules/deauthorize/deauthorize.service.ts';

/** Everything a request handler may use, wired once per panel process (tests build their own). */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  mailer: Mailer;
  repositories: ReturnType<typeof createRepositories>;
  services: ReturnType<typeof createServices>;
  /** shared by every panel instance: sign-in and reset limits */
  authThrottle: ThrottleStore;
  /** per instance: the general API request limits */
  apiThrottle: MemoryThrottle;
  /** the effective two-factor requirement: 0 none, 1 root admins, 2 everyone */
  twoFactorLevel: Cached<0 | 1 | 2>;
}

function createRepositories(db: Db) {
  return {
    users: new UsersRepository(db.db),
    sessions: new SessionsRepository(db.db),
    apiKeys: new ApiKeysRepository(db.db),
    recoveryTokens: new RecoveryTokensRepository(db.db),
    passwordResets: new PasswordResetsRepository(db.db),
    sshKeys: new SshKeysRepository(db.db),
    activity: new ActivityRepository(db.db),
    settings: new SettingsRepository(db.db),
    applicationUsers: new ApplicationUsersRepository(db.db),
    locations: new LocationsRepository(db.db),
    nodes: new NodesRepository(db.db),
    allocations: new AllocationsRepository(db.db),
    includedServers: new IncludedServersRepository(db.db),
    serverDatabases: new ServerDatabasesRepository(db.db),
    eggs: new EggsRepository(db.db),
    servers: new ServersRepository(db.db),
    network: new NetworkRepository(db.db),
    subusers: new SubusersRepository(db.db),
    backups: new BackupsRepository(db.db, db.dialect),
    schedules: new SchedulesRepository(db.db),
    deauthorize: new DeauthorizeRepository(db.db),
  };
}

function createServices(
  config: Config,
  repos: ReturnType<typeof createRepositories>,
  mailer: Mailer,
  authThrottle: ThrottleStore,
  log: Logger,
  db: Db,
  settings: SettingsService,
) {
  // Synchronous for the mail and TOTP texts: the site name last read (refreshed every few seconds).
  const siteName = () => settings.latest().appName;
  const activity = new ActivityService(repos.activity);
  const welcome = new WelcomeMail(repos.passwordResets, mailer, log, config.appUrl, siteName);
  const daemon = new DaemonClient(config.appKey);
  const deauthorize = new DeauthorizeService(repos.deauthorize, daemon, log);
  const twoFactor = new TwoFactorService(repos.users, repos.recoveryTokens, config.appKey, siteName);
  const nodes = new NodesService(repos.nodes, repos.locations, activity, config.appKey);
  const servers = new ServersService(daemon, activity, config);
  const backups = new BackupsService(repos.backups, repos.servers, daemon, activity, config, log);
  const serverManagement = new ServerManagementService(
    repos.servers,
    daemon,
    activity,
    backups,
    databaseServices({ config, db, log, activity }).databases,
  );
  const serverUpdate = new ServerUpdateService(
    repos.servers,
    repos.users,
    repos.eggs,
    daemon,
    activity,
    log,
    deauthorize,
  );
  return {
    nodes,
    locations: new LocationsService(repos.locations, activity),
    allocations: new AllocationsService(repos.allocations, nodes, activity),
    includedServers: new IncludedServers(repos),
    applicationUsers: new ApplicationUsersService(
      repos.users,
      repos.applicationUsers,
      activity,
      welcome,
      deauthorize,
    ),
    activity,
    twoFactor,
    users: new UsersService(repos.users, deauthorize),
    eggs: new EggsService(repos.eggs),
    servers,
    files: new FilesService(daemon, activity, config.filesMaxEditSize, config.appUrl),
    startup: new StartupService(repos.servers, activity),
    serverCreation: new ServerCreationService(
      repos.servers,
      repos.users,
      repos.eggs,
      nodes,
      daemon,
      activity,
    ),
    serverManagement,
    serverSettings: new ServerSettingsService(repos.servers, serverManagement, activity),
    serverUpdate,
    network: new NetworkService(
      repos.network,
      repos.servers,
      serverUpdate,
      activity,
      async () => (await settings.effective()).clientAllocations,
    ),
    subusers: new SubusersService(repos.subusers, repos.users, deauthorize, activity, welcome),
    backups,
    schedules: new SchedulesService(repos.schedules, activity, {
      timezone: config.timezone,
      taskLimit: config.schedules.taskLimit,
    }),
    sessions: new SessionsService(repos.sessions, config.sessionLifetimeMinutes, config.appKey),
    apiKeys: new ApiKeysService(repos.apiKeys),
    settings,
    account: new AccountService(repos.users, activity, deauthorize),
    auth: new AuthService({
      users: repos.users,
      twoFactor,
      resets: repos.passwordResets,
      activity,
      throttle: authThrottle,
      mailer,
      appUrl: config.appUrl,
      siteName,
      deauthorize,
    }),
  };
}

/**
 * `mailer` replaces the SMTP mailer (which follows the mail settings in effect, see
 * modules/settings).
 */
export function createContext(config: Config, db: Db, log: Logger, mailer?: Mailer): AppContext {
  const repositories = createRepositories(db);
  const authThrottle = new DbThrottle(db.db);
  const settings = new SettingsService(
    repositories.settings,
    config,
    new ActivityService(repositories.activity),
    log,
  );
  const mail = mailer ?? createMailer(async () => (await settings.effective()).mail, log);
  return {
    config,
    db,
    log,
    mailer: mail,
    repositories,
    services: createServices(config, repositories, mail, authThrottle, log, db, settings),
    authThrottle,
    apiThrottle: new MemoryThrottle(),
    twoFactorLevel: settings.twoFactorLevel,
  };
}

export { cached, type Cached } from './lib/cached.ts';
