import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { createSshKeySchema, type CreateSshKeyValues } from '@talon/shared/validation/sshKeys';
import { httpErrorToHuman } from '../../api/errors.ts';
import { createSshKey } from '../../api/sshKeys.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { TextAreaField, TextField } from '../../components/Field.tsx';
import { SpinnerOverlay } from '../../components/Spinner.tsx';
import { fingerprintText, SSH_KEYS_FLASH, useSshKeysCache } from './sshKeysQuery.ts';

/** Add SSH Key: a name and the public key; once the panel accepts it, its fingerprint is shown. */
export function CreateSshKeyForm() {
  const { t } = useTranslation('account');
  const updateKeys = useSshKeysCache();
  const { register, handleSubmit, formState, reset } = useForm<CreateSshKeyValues>({
    resolver: zodResolver(createSshKeySchema),
    mode: 'onTouched',
    defaultValues: { name: '', publicKey: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const onSubmit = async (values: CreateSshKeyValues) => {
    const store = useGlobalStore.getState();
    store.clearFlashes(SSH_KEYS_FLASH);
    try {
      const key = await createSshKey(values.name, values.publicKey.trim());
      updateKeys((keys) => [...keys.filter((k) => k.fingerprint !== key.fingerprint), key]);
      reset({ name: '', publicKey: '' });
      store.addFlash({
        key: SSH_KEYS_FLASH,
        type: 'success',
        title: t('ssh.added_title'),
        message: t('ssh.added', { name: key.name, fingerprint: fingerprintText(key.fingerprint) }),
      });
    } catch (error) {
      flashError(SSH_KEYS_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="relative space-y-4">
      <SpinnerOverlay visible={isSubmitting} />
      <TextField
        label={t('ssh.name')}
        hint={t('ssh.name_hint')}
        autoComplete="off"
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name')}
      />
      <TextAreaField
        label={t('ssh.public_key')}
        hint={t('ssh.public_key_hint')}
        rows={4}
        spellCheck={false}
        placeholder="ssh-ed25519 AAAA… you@computer"
        error={errors.publicKey?.message}
        touched={touchedFields.publicKey || isSubmitted}
        {...register('publicKey')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {t('ssh.create')}
        </Button>
      </div>
    </form>
  );
}
