import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { updatePasswordSchema, type UpdatePasswordValues } from '@talon/shared/validation/account';
import { updateAccountPassword } from '../../api/account.ts';
import { logout } from '../../api/auth.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { SpinnerOverlay } from '../../components/Spinner.tsx';
import { fullPage } from '../../lib/navigation.ts';

const KEY = 'account:password';

/** Update Password. On success the browser goes to /auth/login to sign in again (spec §4). */
export function UpdatePasswordForm() {
  const { t } = useTranslation('account');
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const { register, handleSubmit, formState } = useForm<UpdatePasswordValues>({
    resolver: zodResolver(updatePasswordSchema),
    mode: 'onTouched',
    defaultValues: { current: '', password: '', confirmPassword: '' },
  });
  const { errors, touchedFields, isSubmitting, isValid } = formState;

  const onSubmit = async (values: UpdatePasswordValues) => {
    clearFlashes(KEY);
    try {
      await updateAccountPassword(values);
    } catch (error) {
      flashError(KEY, httpErrorToHuman(error));
      return;
    }
    await logout().catch(() => undefined);
    fullPage.navigate('/auth/login');
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="relative space-y-4">
      <SpinnerOverlay visible={isSubmitting} />
      <FlashMessageRender byKey={KEY} />
      <TextField
        label={t('password.current')}
        type="password"
        autoComplete="current-password"
        error={errors.current?.message}
        touched={touchedFields.current}
        {...register('current')}
      />
      <TextField
        label={t('password.new')}
        type="password"
        autoComplete="new-password"
        hint={t('password.new_hint')}
        error={errors.password?.message}
        touched={touchedFields.password}
        {...register('password')}
      />
      <TextField
        label={t('password.confirm')}
        type="password"
        autoComplete="new-password"
        error={errors.confirmPassword?.message}
        touched={touchedFields.confirmPassword}
        {...register('confirmPassword')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting || !isValid}>
          {t('password.submit')}
        </Button>
      </div>
    </form>
  );
}
