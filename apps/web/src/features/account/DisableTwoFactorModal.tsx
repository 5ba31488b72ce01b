import { useEffect } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { disableTwoFactorSchema, type DisableTwoFactorValues } from '@talon/shared/validation/account';
import { disableTwoFactor } from '../../api/account.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { Modal } from '../../components/Modal.tsx';

const KEY = 'account:two-factor';

/** Disable two-factor with the account password; useTotp becomes false (spec §4). */
export function DisableTwoFactorModal({
  visible,
  onDismissed,
}: {
  visible: boolean;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('account');
  const updateUser = useGlobalStore((s) => s.updateUser);
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const { register, handleSubmit, formState, reset } = useForm<DisableTwoFactorValues>({
    resolver: zodResolver(disableTwoFactorSchema),
    mode: 'onTouched',
    defaultValues: { password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  useEffect(() => {
    if (visible) {
      reset({ password: '' });
      clearFlashes(KEY);
    }
  }, [visible, reset, clearFlashes]);

  const onSubmit = async (values: DisableTwoFactorValues) => {
    clearFlashes(KEY);
    try {
      await disableTwoFactor(values.password);
    } catch (error) {
      flashError(KEY, httpErrorToHuman(error));
      return;
    }
    updateUser({ useTotp: false });
    onDismissed();
  };

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('two_factor.disable_title')}
      showSpinnerOverlay={isSubmitting}
    >
      <FlashMessageRender byKey={KEY} className="mb-4" />
      <p className="mb-4 text-sm text-zinc-300">{t('two_factor.disable_help')}</p>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
        <TextField
          label={t('two_factor.disable_password')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          touched={touchedFields.password || isSubmitted}
          {...register('password')}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={onDismissed}>
            {t('two_factor.cancel')}
          </Button>
          <Button type="submit" variant="danger" disabled={isSubmitting}>
            {t('two_factor.disable_submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
