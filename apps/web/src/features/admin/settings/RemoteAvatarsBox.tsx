import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { FormCheckbox } from '../components/FormField.tsx';
import type { SettingsFormValues } from './settingsForm.ts';

/**
 * The Settings screen's "Avatars" box: whether pages show Gravatar pictures (off: initials, no
 * request to the service). Its texts live with the avatars' (the `users` namespace).
 */
export function RemoteAvatarsBox({
  form,
  locked,
}: {
  form: UseFormReturn<SettingsFormValues>;
  locked: boolean;
}) {
  const { t } = useTranslation(['users', 'admin']);
  return (
    <ContentBox title={t('avatars.title')}>
      <FormCheckbox
        form={form}
        name="remoteAvatars"
        label={t('avatars.remote')}
        disabled={locked}
        hint={locked ? t('admin:settings.set_by_environment') : t('avatars.remote_hint')}
      />
    </ContentBox>
  );
}
