import type {
  MailEncryption,
  PanelSettings as WirePanelSettings,
  PanelSettingsPatch,
  PanelSettingsResponse,
  TwoFactorRequirement,
} from '@talon/shared/admin/settings-wire';
import { http } from '../http.ts';
import { APP, requestApp, type WireItem } from './http.ts';

/** Panel settings (docs/api.md "Settings", session only); wire shapes in packages/shared. */
export type { TwoFactorRequirement, MailEncryption, PanelSettingsPatch };

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
  /** Gravatar pictures instead of initials (the browser then asks gravatar.com). */
  remoteAvatars: boolean;
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
    remoteAvatars: wire.avatars.remote,
    environment,
  };
}

type SettingsEnvelope = Omit<PanelSettingsResponse, 'meta'> & { meta?: { environment?: string[] } };

export async function getPanelSettings(): Promise<PanelSettings> {
  const { data } = await http.get<SettingsEnvelope>(`${APP}/settings`);
  return toPanelSettings(data.attributes, data.meta?.environment ?? []);
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
