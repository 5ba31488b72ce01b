import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import {
  getPanelSettings,
  updatePanelSettings,
  type PanelSettings,
} from '../../../api/application/settings.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { SpinnerOverlay } from '../../../components/Spinner.tsx';
import {
  ADMIN_FLASH,
  AdminPage,
  FormCheckbox,
  FormSelect,
  FormText,
  ItemLoader,
  applyFieldErrors,
} from '../components/index.ts';
import {
  FIELD_WIRE,
  fieldForWire,
  settingsResolver,
  toFormValues,
  toPatch,
  type SettingsField,
  type SettingsFormValues,
} from './settingsForm.ts';
import { RemoteAvatarsBox } from './RemoteAvatarsBox.tsx';
import { TestMailBox } from './TestMailBox.tsx';

export const SETTINGS_QUERY = ['admin', 'settings'] as const;

/**
 * The label of each field that can refuse a save, in page order: the form-level line names the
 * fields that block it ("Not saved: correct Sender address first.") and the first one gets the focus.
 */
const LABEL_KEYS: Partial<Record<keyof SettingsFormValues, string>> = {
  appName: 'settings.app_name',
  twoFactor: 'settings.two_factor',
  recaptchaEnabled: 'settings.recaptcha.enabled',
  recaptchaSiteKey: 'settings.recaptcha.site_key',
  recaptchaSecretKey: 'settings.recaptcha.secret_key',
  mailHost: 'settings.mail.host',
  mailPort: 'settings.mail.port',
  mailEncryption: 'settings.mail.encryption',
  mailUsername: 'settings.mail.username',
  mailPassword: 'settings.mail.password',
  mailFromAddress: 'settings.mail.from_address',
  mailFromName: 'settings.mail.from_name',
  allocationsEnabled: 'settings.allocations.enabled',
  allocationsStart: 'settings.allocations.start',
  allocationsEnd: 'settings.allocations.end',
};
const PAGE_ORDER = Object.keys(LABEL_KEYS) as (keyof SettingsFormValues)[];

/** /admin/settings */
export function SettingsPage() {
  const { t } = useTranslation('admin');
  const query = useQuery({ queryKey: SETTINGS_QUERY, queryFn: getPanelSettings });
  return (
    <AdminPage title={t('settings.title')} description={t('settings.description')}>
      <ItemLoader query={query}>{(settings) => <SettingsForm settings={settings} />}</ItemLoader>
    </AdminPage>
  );
}

function SettingsForm({ settings }: { settings: PanelSettings }) {
  const { t, i18n } = useTranslation('admin');
  const client = useQueryClient();
  const form = useForm<SettingsFormValues>({
    resolver: settingsResolver,
    values: toFormValues(settings),
  });
  const { isSubmitting, isDirty } = form.formState;
  const locked = new Set<string>(settings.environment);
  /** Props that make a field read-only with "Set by environment" when its variable is set. */
  const env = (field: SettingsField, hint?: string) =>
    locked.has(FIELD_WIRE[field]) ? { readOnly: true, hint: t('settings.set_by_environment') } : { hint };
  const envLocked = (field: SettingsField) => locked.has(FIELD_WIRE[field]);
  const blocking = PAGE_ORDER.filter((field) => form.formState.errors[field]);
  /** Brings the first field with a problem into view and focuses it (below the sticky top bar). */
  const focusFirstProblem = () => {
    const first = PAGE_ORDER.find((field) => form.getFieldState(field).error);
    if (!first) return;
    form.setFocus(first);
    document.activeElement?.scrollIntoView?.({ block: 'center' });
  };
  const recaptchaOn = form.watch('recaptchaEnabled');
  const allocationsOn = form.watch('allocationsEnabled');
  // A problem of a field that is hidden again (its switch turned off) no longer blocks the save.
  const { clearErrors } = form;
  useEffect(() => {
    if (!recaptchaOn) clearErrors(['recaptchaSiteKey', 'recaptchaSecretKey']);
    if (!allocationsOn) clearErrors(['allocationsStart', 'allocationsEnd']);
  }, [recaptchaOn, allocationsOn, clearErrors]);

  const onSubmit = async (values: SettingsFormValues) => {
    const store = useGlobalStore.getState();
    store.clearFlashes(ADMIN_FLASH);
    try {
      const saved = await updatePanelSettings(toPatch(values, settings.environment));
      client.setQueryData(SETTINGS_QUERY, saved);
      useGlobalStore.setState((s) => ({
        settings: { ...s.settings, name: saved.appName, remoteAvatars: saved.remoteAvatars },
      }));
      store.addFlash({ key: ADMIN_FLASH, type: 'success', message: t('settings.saved') });
    } catch (error) {
      if (applyFieldErrors(error, form.setError, fieldForWire)) focusFirstProblem();
      else flashError(ADMIN_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(onSubmit, focusFirstProblem)} className="relative space-y-6">
      <SpinnerOverlay visible={isSubmitting} />
      {locked.size > 0 && <p className="text-sm text-zinc-400">{t('settings.environment_note')}</p>}
      <ContentBox title={t('settings.general')}>
        <div className="grid gap-4 md:grid-cols-2">
          <FormText
            form={form}
            name="appName"
            label={t('settings.app_name')}
            {...env('appName', t('settings.app_name_hint'))}
          />
          <FormSelect
            form={form}
            name="twoFactor"
            label={t('settings.two_factor')}
            disabled={envLocked('twoFactor')}
            hint={envLocked('twoFactor') ? t('settings.set_by_environment') : t('settings.two_factor_hint')}
            options={(['none', 'admins', 'everyone'] as const).map((v) => ({
              value: v,
              label: t(`settings.two_factor_${v}`),
            }))}
          />
        </div>
      </ContentBox>

      <ContentBox title={t('settings.recaptcha.title')}>
        <div className="space-y-4">
          <FormCheckbox
            form={form}
            name="recaptchaEnabled"
            label={t('settings.recaptcha.enabled')}
            disabled={envLocked('recaptchaEnabled')}
            hint={
              envLocked('recaptchaEnabled') ? t('settings.set_by_environment') : t('settings.recaptcha.hint')
            }
          />
          {recaptchaOn && (
            <div className="grid gap-4 md:grid-cols-2">
              <FormText
                form={form}
                name="recaptchaSiteKey"
                label={t('settings.recaptcha.site_key')}
                {...env('recaptchaSiteKey')}
              />
              <FormText
                form={form}
                name="recaptchaSecretKey"
                type="password"
                autoComplete="off"
                label={t('settings.recaptcha.secret_key')}
                placeholder={settings.recaptcha.secretKeySet ? t('settings.secret_kept') : ''}
                {...env(
                  'recaptchaSecretKey',
                  settings.recaptcha.secretKeySet ? t('settings.secret_kept_hint') : undefined,
                )}
              />
            </div>
          )}
        </div>
      </ContentBox>

      <ContentBox title={t('settings.mail.title')}>
        <div className="space-y-4">
          <p className="text-sm text-zinc-400">{t('settings.mail.hint')}</p>
          <div className="grid gap-4 md:grid-cols-[minmax(0,3fr)_minmax(0,1fr)_minmax(0,1fr)]">
            <FormText
              form={form}
              name="mailHost"
              label={t('settings.mail.host')}
              placeholder="smtp.example.com"
              {...env('mailHost')}
            />
            <FormText
              form={form}
              name="mailPort"
              label={t('settings.mail.port')}
              inputMode="numeric"
              {...env('mailPort')}
            />
            <FormSelect
              form={form}
              name="mailEncryption"
              label={t('settings.mail.encryption')}
              disabled={envLocked('mailEncryption')}
              hint={envLocked('mailEncryption') ? t('settings.set_by_environment') : undefined}
              options={(['tls', 'ssl', 'none'] as const).map((v) => ({
                value: v,
                label: t(`settings.mail.encryption_${v}`),
              }))}
            />
          </div>
          <div className="grid gap-4 md:grid-cols-2">
            <FormText
              form={form}
              name="mailUsername"
              label={t('settings.mail.username')}
              autoComplete="off"
              {...env('mailUsername')}
            />
            <div className="space-y-2">
              <FormText
                form={form}
                name="mailPassword"
                type="password"
                autoComplete="new-password"
                label={t('settings.mail.password')}
                placeholder={settings.mail.passwordSet ? t('settings.secret_kept') : ''}
                {...env(
                  'mailPassword',
                  settings.mail.passwordSet ? t('settings.secret_kept_hint') : undefined,
                )}
              />
              {settings.mail.passwordSet && !envLocked('mailPassword') && (
                <FormCheckbox
                  form={form}
                  name="mailPasswordClear"
                  label={t('settings.mail.password_clear')}
                />
              )}
            </div>
            <FormText
              form={form}
              name="mailFromAddress"
              type="email"
              label={t('settings.mail.from_address')}
              {...env('mailFromAddress')}
            />
            <FormText
              form={form}
              name="mailFromName"
              label={t('settings.mail.from_name')}
              {...env('mailFromName')}
            />
          </div>
          <TestMailBox unsaved={isDirty} />
        </div>
      </ContentBox>

      <ContentBox title={t('settings.allocations.title')}>
        <div className="space-y-4">
          <FormCheckbox
            form={form}
            name="allocationsEnabled"
            label={t('settings.allocations.enabled')}
            disabled={envLocked('allocationsEnabled')}
            hint={
              envLocked('allocationsEnabled')
                ? t('settings.set_by_environment')
                : t('settings.allocations.hint')
            }
          />
          {allocationsOn && (
            <div className="grid gap-4 sm:grid-cols-2">
              <FormText
                form={form}
                name="allocationsStart"
                inputMode="numeric"
                label={t('settings.allocations.start')}
                {...env('allocationsStart')}
              />
              <FormText
                form={form}
                name="allocationsEnd"
                inputMode="numeric"
                label={t('settings.allocations.end')}
                {...env('allocationsEnd')}
              />
            </div>
          )}
        </div>
      </ContentBox>

      <RemoteAvatarsBox form={form} locked={envLocked('remoteAvatars')} />

      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-end">
        {blocking.length > 0 && (
          <p role="alert" className="text-sm text-red-400">
            {t('settings.not_saved', {
              fields: new Intl.ListFormat(i18n.language, { type: 'conjunction' }).format(
                blocking.map((field) => t(LABEL_KEYS[field]!)),
              ),
            })}
          </p>
        )}
        <Button type="submit" isLoading={isSubmitting} disabled={!isDirty}>
          {t('settings.save')}
        </Button>
      </div>
    </form>
  );
}
