import { http } from '../http.ts';
import { APP, requestApp, type WireItem } from './http.ts';

/** Panel settings (contract "Settings", session only). */
export type TwoFactorRequirement = 'none' | 'admins' | 'everyone';
export type MailEncryption = 'tls' | 'ssl' | 'none';

export interface WirePanelSettings {
  app_name: string;
  two_factor: TwoFactorRequirement;
  recaptcha: { enabled: boolean; site_key: string; secret_key_set: boolean };
  mail: {
    host: string | null;
    port: number;
    encryption: MailEncryption;
    username: string | null;
    password_set: boolean;
    from_address: string;
    from_name: string | null;
  };
  client_allocations: { enabled: boolean; range_start: number | null; range_end: number | null };
}

export interface PanelSettings {
  appName: string;
  twoFactor: TwoFactorRequirement;
  recaptcha: { enabled: boolean; siteKey: string; secretKeySet: boolean };
  mail: {
    host: string | null;
    port: number;
    encryption: MailEncryption;
    username: string | null;
    passwordSet: boolean;
    fromAddress: string;
    fromName: string | null;
  };
  clientAllocations: { enabled: boolean; rangeStart: number | null; rangeEnd: number | null };
  /** Dotted wire names set by an environment variable (`mail.host`, `app_name`): read-only. */
  environment: string[];
}

export function toPanelSettings(wire: WirePanelSettings, environment: string[] = []): PanelSettings {
  return {
    appName: wire.app_name,
    twoFactor: wire.two_factor,
    recaptcha: {
      enabled: wire.recaptcha.enabled,
      siteKey: wire.recaptcha.site_key,
      secretKeySet: wire.recaptcha.secret_key_set,
    },
    mail: {
      host: wire.mail.host,
      port: wire.mail.port,
      encryption: wire.mail.encryption,
      username: wire.mail.username,
      passwordSet: wire.mail.password_set,
      fromAddress: wire.mail.from_address,
      fromName: wire.mail.from_name,
    },
    clientAllocations: {
      enabled: wire.client_allocations.enabled,
      rangeStart: wire.client_allocations.range_start,
      rangeEnd: wire.client_allocations.range_end,
    },
    environment,
  };
}

type SettingsEnvelope = WireItem<WirePanelSettings> & { meta?: { environment?: string[] } };

export async function getPanelSettings(): Promise<PanelSettings> {
  const { data } = await http.get<SettingsEnvelope>(`${APP}/settings`);
  return toPanelSettings(data.attributes, data.meta?.environment ?? []);
}

/**
 * A partial update in wire names. `recaptcha.secret_key` and `mail.password` are write-only: an
 * empty password keeps the stored one unless `mail.password_clear` is true.
 */
export interface PanelSettingsPatch {
  app_name?: string;
  two_factor?: TwoFactorRequirement;
  recaptcha?: { enabled?: boolean; site_key?: string; secret_key?: string };
  mail?: {
    host?: string | null;
    port?: number;
    encryption?: MailEncryption;
    username?: string | null;
    password?: string | null;
    password_clear?: boolean;
    from_address?: string;
    from_name?: string | null;
  };
  client_allocations?: { enabled?: boolean; range_start?: number | null; range_end?: number | null };
}

export async function updatePanelSettings(patch: PanelSettingsPatch): Promise<PanelSettings> {
  const { data } = await requestApp<SettingsEnvelope>('PATCH', '/settings', patch);
  return toPanelSettings(data.attributes, data.meta?.environment ?? []);
}

/** Sends a test mail; answers the SMTP server's final reply. Failures reject (502, detail in words). */
export async function sendTestMail(to?: string): Promise<string> {
  const { data } = await requestApp<WireItem<{ ok: boolean; response: string }>>(
    'POST',
    '/settings/mail/test',
    to ? { to } : {},
  );
  return data.attributes.response;
}
