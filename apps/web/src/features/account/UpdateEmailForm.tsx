import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { updateEmailSchema, type UpdateEmailValues } from '@talon/shared/validation/account';
import { updateAccountEmail } from '../../api/account.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { SpinnerOverlay } from '../../components/Spinner.tsx';

const KEY = 'account:email';

/** Update Email Address: success shows a flash and resets the form (spec §4). */
export function UpdateEmailForm() {
  const { t } = useTranslation('account');
  const email = useGlobalStore((s) => s.user?.email ?? '');
  const updateUser = useGlobalStore((s) => s.updateUser);
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const addFlash = useGlobalStore((s) => s.addFlash);
  const { register, handleSubmit, formState, reset } = useForm<UpdateEmailValues>({
    resolver: zodResolver(updateEmailSchema),
    mode: 'onTouched',
    values: { email, password: '' },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;

  const onSubmit = async (values: UpdateEmailValues) => {
    clearFlashes(KEY);
    try {
      await updateAccountEmail(values.email, values.password);
    } catch (error) {
      flashError(KEY, httpErrorToHuman(error));
      return;
    }
    updateUser({ email: values.email });
    reset({ email: values.email, password: '' });
    addFlash({ key: KEY, type: 'success', title: t('common:flash.success'), message: t('email.updated') });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="relative space-y-4">
      <SpinnerOverlay visible={isSubmitting} />
      <FlashMessageRender byKey={KEY} />
      <TextField
        label={t('email.email')}
        type="email"
        autoComplete="email"
        error={errors.email?.message}
        touched={touchedFields.email || isSubmitted}
        {...register('email')}
      />
      <TextField
        label={t('email.password')}
        type="password"
        autoComplete="current-password"
        error={errors.password?.message}
        touched={touchedFields.password || isSubmitted}
        {...register('password')}
      />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting}>
          {t('email.submit')}
        </Button>
      </div>
    </form>
  );
}
