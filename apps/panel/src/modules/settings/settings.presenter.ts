import type { PanelSettings } from '@talon/shared';
import type { EffectiveSettings } from './settings.service.ts';

/** The `settings` object: secrets only as "one is stored" (never their value). */
export function settingsAttributes({ values: v }: EffectiveSettings): PanelSettings {
  return {
    app_name: v.app_name,
    two_factor: v.two_factor,
    recaptcha: {
      enabled: v['recaptcha.enabled'],
      site_key: v['recaptcha.site_key'],
      secret_key_set: v['recaptcha.secret_key'] !== '',
    },
    mail: {
      host: v['mail.host'],
      port: v['mail.port'],
      encryption: v['mail.encryption'],
      username: v['mail.username'],
      password_set: v['mail.password'] !== null && v['mail.password'] !== '',
      from_address: v['mail.from_address'],
      from_name: v['mail.from_name'],
    },
    client_allocations: {
      enabled: v['client_allocations.enabled'],
      range_start: v['client_allocations.range_start'],
      range_end: v['client_allocations.range_end'],
    },
    avatars: { remote: v['avatars.remote'] },
  };
}
