import type { ColumnType, Generated, Insertable, Selectable, Updateable } from 'kysely';

/**
 * Row types of every table. Conventions (both SQLite and PostgreSQL): integer ids, booleans as 0/1
 * integers, timestamps as ISO-8601 UTC text (`2026-01-02T03:04:05.678Z`), JSON as text.
 */
type Id = Generated<number>;
type Bool = number;
type Timestamp = string;

export interface UsersTable {
  id: Id;
  uuid: string;
  external_id: string | null;
  username: string;
  email: string;
  name_first: string;
  name_last: string;
  password: string;
  language: string;
  root_admin: Bool;
  use_totp: Bool;
  /** encrypted with the app key */
  totp_secret: string | null;
  totp_authenticated_at: Timestamp | null;
  /** last accepted TOTP time step: a code is never accepted twice */
  totp_last_step: number | null;
  gravatar: Bool;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SessionsTable {
  /** sha256 of the cookie value: a database leak does not leak live sessions */
  id: string;
  user_id: number | null;
  csrf_token: string;
  /** JSON: pending two-factor login and other short-lived state */
  data: string;
  ip: string | null;
  user_agent: string | null;
  last_activity: Timestamp;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface ApiKeysTable {
  id: Id;
  user_id: number;
  /** 1 = client (ptlc_), 2 = application (ptla_) */
  key_type: number;
  identifier: string;
  /** sha256 hex of the secret */
  token_hash: string;
  memo: string;
  /** JSON array of strings */
  allowed_ips: string;
  r_servers: number;
  r_nodes: number;
  r_allocations: number;
  r_users: number;
  r_locations: number;
  r_nests: number;
  r_eggs: number;
  r_database_hosts: number;
  r_server_databases: number;
  last_used_at: Timestamp | null;
  expires_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface RecoveryTokensTable {
  id: Id;
  user_id: number;
  /** argon2id hash */
  token: string;
  created_at: Timestamp;
}

export interface PasswordResetsTable {
  id: Id;
  email: string;
  /** sha256 hex of the token in the mail */
  token_hash: string;
  created_at: Timestamp;
}

export interface UserSshKeysTable {
  id: Id;
  user_id: number;
  name: string;
  fingerprint: string;
  public_key: string;
  created_at: Timestamp;
  updated_at: Timestamp;
  deleted_at: Timestamp | null;
}

export interface ActivityLogsTable {
  id: Id;
  batch: string | null;
  event: string;
  ip: string | null;
  description: string | null;
  /** 'user' or null for the system or a daemon */
  actor_type: string | null;
  actor_id: number | null;
  api_key_id: number | null;
  /** JSON object */
  properties: string;
  timestamp: Timestamp;
}

export interface ActivityLogSubjectsTable {
  id: Id;
  activity_log_id: number;
  subject_type: string;
  subject_id: number;
}

export interface SettingsTable {
  key: string;
  value: string;
}

export interface RateLimitsTable {
  key: string;
  hits: number;
  /** epoch milliseconds */
  reset_at: ColumnType<number, number, number>;
}

export interface LocationsTable {
  id: Id;
  short: string;
  long: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NodesTable {
  id: Id;
  uuid: string;
  public: Bool;
  name: string;
  description: string | null;
  location_id: number;
  fqdn: string;
  scheme: string;
  behind_proxy: Bool;
  maintenance_mode: Bool;
  memory: number;
  memory_overallocate: number;
  disk: number;
  disk_overallocate: number;
  upload_size: number;
  daemon_token_id: string;
  /** encrypted with the app key */
  daemon_token: string;
  daemon_listen: number;
  daemon_sftp: number;
  daemon_base: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Single-use node setup tokens (migration 0013); only the token's SHA-256 is kept. */
export interface NodeSetupTokensTable {
  id: Id;
  node_id: number;
  token_hash: string;
  created_by: number | null;
  expires_at: Timestamp;
  created_at: Timestamp;
}

export interface AllocationsTable {
  id: Id;
  node_id: number;
  ip: string;
  ip_alias: string | null;
  port: number;
  server_id: number | null;
  notes: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface NestsTable {
  id: Id;
  uuid: string;
  author: string;
  name: string;
  description: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EggsTable {
  id: Id;
  uuid: string;
  nest_id: number;
  author: string;
  name: string;
  description: string | null;
  /** JSON array */
  features: string;
  /** JSON object label → image */
  docker_images: string;
  /** JSON array */
  file_denylist: string;
  update_url: string | null;
  /** JSON */
  config_files: string;
  config_startup: string;
  config_logs: string;
  config_stop: string | null;
  config_from: number | null;
  startup: string;
  script_container: string;
  script_entry: string;
  script_is_privileged: Bool;
  script_install: string | null;
  copy_script_from: number | null;
  /** JSON array of { name, command }, the first the default; null: only `startup` (migration 0009) */
  startup_commands: string | null;
  /** JSON array of tags (migration 0009) */
  tags: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface EggVariablesTable {
  id: Id;
  egg_id: number;
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: Bool;
  user_editable: Bool;
  rules: string;
  /** display position (Pelican), null when the egg gave none (migration 0009) */
  sort: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ServersTable {
  id: Id;
  external_id: string | null;
  uuid: string;
  uuid_short: string;
  node_id: number;
  name: string;
  description: string;
  /** null, installing, install_failed, reinstall_failed, suspended, restoring_backup */
  status: string | null;
  skip_scripts: Bool;
  owner_id: number;
  memory: number;
  swap: number;
  disk: number;
  io: number;
  cpu: number;
  threads: string | null;
  oom_disabled: Bool;
  allocation_id: number;
  nest_id: number;
  egg_id: number;
  startup: string;
  image: string;
  allocation_limit: number | null;
  database_limit: number | null;
  backup_limit: number;
  installed_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface ServerVariablesTable {
  id: Id;
  server_id: number;
  variable_id: number;
  variable_value: string;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SubusersTable {
  id: Id;
  user_id: number;
  server_id: number;
  /** JSON array of permission keys */
  permissions: string;
  /** Our extension: JSON array of absolute folders the file permissions are limited to; NULL = whole server */
  file_paths: string | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

/** Counters the database's triggers bump on writes (migration 0004): `server_list`. */
export interface ChangeGenerationsTable {
  name: string;
  value: number;
}

export interface BackupsTable {
  id: Id;
  server_id: number;
  uuid: string;
  is_successful: Bool;
  is_locked: Bool;
  name: string;
  /** JSON array of ignore patterns */
  ignored_files: string;
  /** `wings` (the node's disk) */
  disk: string;
  /** `<algorithm>:<hex>` once completed */
  checksum: string | null;
  bytes: number;
  completed_at: Timestamp | null;
  /** soft delete: the creation throttle still counts the row */
  deleted_at: Timestamp | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DatabaseHostsTable {
  id: Id;
  name: string;
  /** `mysql` (MySQL 8, MariaDB 10.6+) or `postgresql` (our extension) */
  engine: string;
  host: string;
  port: number;
  username: string;
  /** encrypted with the app key */
  password: string;
  max_databases: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface DatabaseHostNodesTable {
  database_host_id: number;
  node_id: number;
}

export interface ServerDatabasesTable {
  id: Id;
  server_id: number;
  database_host_id: number;
  database: string;
  username: string;
  remote: string;
  /** encrypted with the app key */
  password: string;
  max_connections: number;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface SchedulesTable {
  id: Id;
  server_id: number;
  name: string;
  cron_minute: string;
  cron_hour: string;
  cron_day_of_month: string;
  cron_month: string;
  cron_day_of_week: string;
  is_active: Bool;
  is_processing: Bool;
  only_when_online: Bool;
  last_run_at: Timestamp | null;
  next_run_at: Timestamp | null;
  /** Run Now requested: the next runner tick of any panel claims it */
  run_now: Generated<Bool>;
  /** the claim of the run in progress (runner's token), null when none */
  claim_token: Generated<string | null>;
  /** the claim is void after this time: another runner may take the run over */
  lease_until: Generated<Timestamp | null>;
  /** sequence id of the last task the current run started (0 before the first) */
  run_position: Generated<number>;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface TasksTable {
  id: Id;
  schedule_id: number;
  sequence_id: number;
  /** `command`, `power` or `backup` */
  action: string;
  payload: string;
  /** seconds to wait after the previous task */
  time_offset: number;
  continue_on_failure: Bool;
  /** the user who last saved the task: whose permissions it runs with; null before 2026-12 */
  saved_by: number | null;
  created_at: Timestamp;
  updated_at: Timestamp;
}

export interface Database {
  users: UsersTable;
  sessions: SessionsTable;
  api_keys: ApiKeysTable;
  recovery_tokens: RecoveryTokensTable;
  password_resets: PasswordResetsTable;
  user_ssh_keys: UserSshKeysTable;
  activity_logs: ActivityLogsTable;
  activity_log_subjects: ActivityLogSubjectsTable;
  settings: SettingsTable;
  rate_limits: RateLimitsTable;
  locations: LocationsTable;
  nodes: NodesTable;
  node_setup_tokens: NodeSetupTokensTable;
  allocations: AllocationsTable;
  nests: NestsTable;
  eggs: EggsTable;
  egg_variables: EggVariablesTable;
  servers: ServersTable;
  server_variables: ServerVariablesTable;
  subusers: SubusersTable;
  change_generations: ChangeGenerationsTable;
  backups: BackupsTable;
  database_hosts: DatabaseHostsTable;
  database_host_nodes: DatabaseHostNodesTable;
  databases: ServerDatabasesTable;
  schedules: SchedulesTable;
  tasks: TasksTable;
}

export type User = Selectable<UsersTable>;
export type NewUser = Insertable<UsersTable>;
export type UserUpdate = Updateable<UsersTable>;
export type Session = Selectable<SessionsTable>;
export type ApiKey = Selectable<ApiKeysTable>;
export type SshKey = Selectable<UserSshKeysTable>;
export type ActivityLog = Selectable<ActivityLogsTable>;
export type Location = Selectable<LocationsTable>;
export type Node = Selectable<NodesTable>;
export type Allocation = Selectable<AllocationsTable>;
export type Nest = Selectable<NestsTable>;
export type Egg = Selectable<EggsTable>;
export type EggVariable = Selectable<EggVariablesTable>;
export type Server = Selectable<ServersTable>;
export type ServerVariable = Selectable<ServerVariablesTable>;
export type Subuser = Selectable<SubusersTable>;
export type Backup = Selectable<BackupsTable>;
export type DatabaseHost = Selectable<DatabaseHostsTable>;
export type ServerDatabase = Selectable<ServerDatabasesTable>;
export type Schedule = Selectable<SchedulesTable>;
export type Task = Selectable<TasksTable>;
