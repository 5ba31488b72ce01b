import {
  getPath,
  isSenderAddress,
  type CustomRule,
  type PanelSettingField,
  type RuleFailure,
} from '@talon/shared';
import type { Logger } from 'pino';
import type { Config } from '../../config/config.ts';
import { HttpError, ValidationFailed } from '../../http/errors.ts';
import { check } from '../../http/input.ts';
import { cached, type Cached } from '../../lib/cached.ts';
import { decrypt, encrypt } from '../../lib/crypto.ts';
import { sendThrough, type MailSettings } from '../../mail/mailer.ts';
import type { User } from '../../db/types.ts';
import type { ActivityActor, ActivityService } from '../activity/activity.service.ts';
import type { ClientAllocationSettings } from '../network/network.service.ts';
import {
  environmentFields,
  FIELD_NAMES,
  FIELDS,
  storageKey,
  twoFactorLevel,
  type SettingValues,
} from './settings.fields.ts';
import type { SettingsRepository } from './settings.repository.ts';

/** The settings in effect, in the shapes their consumers use. */
export interface EffectiveSettings {
  values: SettingValues;
  /** fields an environment variable fixes */
  environment: PanelSettingField[];
  appName: string;
  twoFactorLevel: 0 | 1 | 2;
  recaptcha: Config['recaptcha'];
  mail: MailSettings;
  clientAllocations: ClientAllocationSettings;
  /** pages show Gravatar pictures (and the page policy lets them load) */
  remoteAvatars: boolean;
}

export const SET_BY_ENVIRONMENT =
  'This setting is set by an environment variable and cannot be changed here.';

/** Another panel instance sees a change within this time (the cache of {@link SettingsService}). */
const TTL_MS = 5_000;

const string = 'sometimes|nullable|string|max:191';
/** Laravel's `email` with its message, but also `no-reply@localhost`: the panel's own default sender. */
const SENDER_ADDRESS: CustomRule = {
  name: 'email',
  check: (value) =>
    typeof value === 'string' && isSenderAddress(value)
      ? null
      : 'The :attribute must be a valid email address.',
};
const RULES = {
  app_name: 'sometimes|required|string|max:191',
  two_factor: 'sometimes|required|in:none,admins,everyone',
  recaptcha: 'sometimes|array',
  'recaptcha.enabled': 'sometimes|required|boolean',
  'recaptcha.site_key': string,
  'recaptcha.secret_key': string,
  mail: 'sometimes|array',
  'mail.host': string,
  'mail.port': 'sometimes|required|integer|between:1,65535',
  'mail.encryption': 'sometimes|required|in:tls,ssl,none',
  'mail.username': string,
  'mail.password': string,
  'mail.password_clear': 'sometimes|boolean',
  'mail.from_address': ['sometimes', 'required', 'string', SENDER_ADDRESS, 'max:191'],
  'mail.from_name': string,
  client_allocations: 'sometimes|array',
  'client_allocations.enabled': 'sometimes|required|boolean',
  'client_allocations.range_start': 'sometimes|nullable|integer|between:1025,65535',
  'client_allocations.range_end': 'sometimes|nullable|integer|between:1025,65535',
  avatars: 'sometimes|array',
  'avatars.remote': 'sometimes|required|boolean',
};
const ATTRIBUTES = {
  'mail.port': 'mail port',
  'mail.from_address': 'sender address',
  'client_allocations.range_start': 'range start',
  'client_allocations.range_end': 'range end',
};

const BOOLEANS = new Set<PanelSettingField>([
  'recaptcha.enabled',
  'client_allocations.enabled',
  'avatars.remote',
]);
const INTEGERS = new Set<PanelSettingField>([
  'mail.port',
  'client_allocations.range_start',
  'client_allocations.range_end',
]);
const truthy = (v: unknown) => v === true || v === 1 || v === '1';

/**
 * The panel settings an admin changes on the Settings screen, stored in the `settings` table.
 * Each is the environment variable's value when that is set, else the stored value, else the
 * default (config.ts). Secrets are stored encrypted with the app key and never leave this class
 * except towards their consumer (the mailer, the reCAPTCHA check).
 */
export class SettingsService {
  /** the settings in effect, read at most every {@link TTL_MS} */
  readonly effective: Cached<EffectiveSettings>;
  /** the two-factor requirement in effect, for the API authentication hook and the web shell */
  readonly twoFactorLevel: Cached<0 | 1 | 2>;
  private last: EffectiveSettings;

  constructor(
    private readonly repo: SettingsRepository,
    private readonly config: Config,
    private readonly activity: ActivityService,
    private readonly log: Logger,
  ) {
    this.last = this.derive(this.defaults(), environmentFields(config));
    this.effective = cached(TTL_MS, () => this.load());
    const level = (async () => (await this.effective()).twoFactorLevel) as Cached<0 | 1 | 2>;
    level.peek = () => this.effective.peek()?.twoFactorLevel;
    level.forget = () => this.effective.forget();
    this.twoFactorLevel = level;
  }

  /**
   * The settings last read, without waiting (the site name in mail texts is built synchronously);
   * starts a fresh read when they are stale, so the next caller has it.
   */
  latest(): EffectiveSettings {
    if (!this.effective.peek()) {
      this.effective().catch((e: unknown) => this.log.error({ err: e }, 'reading the panel settings failed'));
    }
    return this.last;
  }

  /** PATCH: validates every field, refuses changes to fields the environment sets, then stores. */
  async update(body: unknown, actor: ActivityActor): Promise<EffectiveSettings> {
    const input = check<Record<string, unknown>>(body, RULES, ATTRIBUTES);
    const current = await this.load();
    const environment = new Set(current.environment);
    const changes = new Map<PanelSettingField, unknown>();
    const failures: RuleFailure[] = [];
    for (const field of FIELD_NAMES) {
      const value = this.incoming(field, input);
      if (value === undefined) continue;
      if (environment.has(field)) {
        // The value the environment already gives is accepted (a form sends every field).
        if (FIELDS[field].secret || value !== current.values[field]) {
          failures.push({ field, rule: 'environment', detail: SET_BY_ENVIRONMENT });
        }
        continue;
      }
      changes.set(field, value);
    }
    const merged = { ...current.values, ...Object.fromEntries(changes) };
    failures.push(...crossFieldFailures(merged, input));
    if (failures.length > 0) throw new ValidationFailed(failures);

    const writes = new Map<string, unknown>();
    for (const [field, value] of changes) writes.set(storageKey(field), this.encode(field, value));
    if (writes.size > 0) {
      await this.repo.setMany(writes);
      this.effective.forget();
      // The names only: values may be secrets.
      await this.activity.log('admin:settings.update', actor, [], { fields: [...changes.keys()] });
    }
    return this.effective();
  }

  /**
   * Sends a test mail through the mail settings in effect and returns the SMTP server's final
   * answer; a refusal or a connection failure is a 502 carrying the answer or the error in words.
   */
  async sendTestMail(body: unknown, admin: User): Promise<string> {
    const input = check<{ to?: string | null }>(body, { to: 'sometimes|nullable|email|max:191' });
    const { mail, appName } = await this.effective();
    if (!mail.host) throw mailTransportFailure('No mail server is set: enter the SMTP host and save first.');
    try {
      return await sendThrough(mail, {
        to: input.to ?? admin.email,
        subject: `${appName}: test mail`,
        text: `This test mail from ${appName} shows that its mail settings work.`,
      });
    } catch (e) {
      throw mailTransportFailure(describeMailError(e, mail));
    }
  }

  /** The new value of `field` in a validated body; undefined when the body leaves it as it is. */
  private incoming(field: PanelSettingField, input: Record<string, unknown>): unknown {
    const raw = getPath(input, field);
    if (field === 'mail.password') {
      if (truthy(getPath(input, 'mail.password_clear'))) return null;
      return raw === null || raw === undefined ? undefined : raw;
    }
    if (raw === undefined) return undefined;
    if (field === 'recaptcha.secret_key') return raw === null ? undefined : raw;
    if (field === 'recaptcha.site_key') return raw ?? '';
    if (BOOLEANS.has(field)) return truthy(raw);
    if (INTEGERS.has(field)) return raw === null ? null : Number(raw);
    return raw;
  }

  /** The stored form: secrets encrypted (a cleared one deleted), the two-factor level as 0/1/2. */
  private encode(field: PanelSettingField, value: unknown): unknown {
    if (field === 'two_factor') return twoFactorLevel(value as SettingValues['two_factor']);
    if (FIELDS[field].secret)
      return value === null || value === '' ? undefined : encrypt(this.config.appKey, value as string);
    return value;
  }

  private decode(field: PanelSettingField, stored: unknown): unknown {
    if (field === 'two_factor') return ['none', 'admins', 'everyone'][Number(stored)] ?? 'none';
    if (!FIELDS[field].secret) return stored;
    try {
      return decrypt(this.config.appKey, String(stored));
    } catch {
      // Stored under another app key: as if unset (never the secret itself in the log).
      this.log.warn({ setting: field }, 'a stored secret setting cannot be decrypted with this app key');
      return undefined;
    }
  }

  private defaults(): SettingValues {
    return Object.fromEntries(
      FIELD_NAMES.map((f) => [f, FIELDS[f].fallback(this.config)]),
    ) as unknown as SettingValues;
  }

  private async load(): Promise<EffectiveSettings> {
    const environment = environmentFields(this.config);
    const fromDatabase = FIELD_NAMES.filter((f) => !environment.includes(f));
    const stored = await this.repo.getMany(fromDatabase.map(storageKey));
    const values = this.defaults() as unknown as Record<PanelSettingField, unknown>;
    for (const field of fromDatabase) {
      const key = storageKey(field);
      if (!stored.has(key)) continue;
      const value = this.decode(field, stored.get(key));
      if (value !== undefined) values[field] = value;
    }
    this.last = this.derive(values as unknown as SettingValues, environment);
    return this.last;
  }

  private derive(v: SettingValues, environment: PanelSettingField[]): EffectiveSettings {
    const start = v['client_allocations.range_start'];
    const end = v['client_allocations.range_end'];
    return {
      values: v,
      environment,
      appName: v.app_name,
      twoFactorLevel: twoFactorLevel(v.two_factor),
      recaptcha: {
        enabled: v['recaptcha.enabled'],
        siteKey: v['recaptcha.site_key'],
        secretKey: v['recaptcha.secret_key'],
        verifyUrl: this.config.recaptcha.verifyUrl,
      },
      mail: {
        host: v['mail.host'] ?? undefined,
        port: v['mail.port'],
        encryption: v['mail.encryption'],
        username: v['mail.username'] ?? undefined,
        password: v['mail.password'] ?? undefined,
        from: { address: v['mail.from_address'], name: v['mail.from_name'] ?? v.app_name },
      },
      clientAllocations: {
        enabled: v['client_allocations.enabled'],
        range: start !== null && end !== null ? [start, end] : null,
      },
      remoteAvatars: v['avatars.remote'],
    };
  }
}

/** Rules across fields, checked on the settings as they would be after the change. */
function crossFieldFailures(v: SettingValues, input: Record<string, unknown>): RuleFailure[] {
  const failures: RuleFailure[] = [];
  const start = v['client_allocations.range_start'];
  const end = v['client_allocations.range_end'];
  if (start !== null && end !== null && start > end) {
    const field =
      getPath(input, 'client_allocations.range_end') !== undefined
        ? 'client_allocations.range_end'
        : 'client_allocations.range_start';
    failures.push({ field, rule: '', detail: 'The end of the port range must not be below its start.' });
  }
  if (getPath(input, 'recaptcha') !== undefined && v['recaptcha.enabled']) {
    if (v['recaptcha.site_key'] === '') {
      failures.push({
        field: 'recaptcha.site_key',
        rule: '',
        detail: 'A site key is needed to turn reCAPTCHA on.',
      });
    }
    if (v['recaptcha.secret_key'] === '') {
      failures.push({
        field: 'recaptcha.secret_key',
        rule: '',
        detail: 'A secret key is needed to turn reCAPTCHA on.',
      });
    }
  }
  return failures;
}

function mailTransportFailure(detail: string): HttpError {
  return new HttpError(502, 'MailTransportException', detail);
}

/** The SMTP server's own answer when it gave one, else what went wrong in words. */
function describeMailError(e: unknown, mail: MailSettings): string {
  const err = e as { response?: unknown; code?: unknown; message?: unknown };
  if (typeof err.response === 'string' && err.response !== '') return err.response;
  const reason = typeof err.message === 'string' ? err.message : String(e);
  const where = `${mail.host}:${mail.port}`;
  if (err.code === 'ETIMEDOUT') return `The mail server at ${where} did not answer in time (${reason}).`;
  if (err.code === 'ECONNECTION' || err.code === 'ESOCKET' || err.code === 'EDNS') {
    return `Could not connect to the mail server at ${where}: ${reason}`;
  }
  return `Sending the mail through ${where} failed: ${reason}`;
}
