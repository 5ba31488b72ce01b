import { Link, useNavigate, useParams, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { resetPasswordSchema, type ResetPasswordValues } from '@talon/shared/validation/auth';
import { performPasswordReset } from '../../api/auth.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { AUTH_LINK, AuthCard } from './AuthCard.tsx';
import { showAuthFlash } from './useAuthFlash.ts';
import { fullPage } from '../../lib/navigation.ts';

/** /auth/password/reset/{token}?email=…: choose a new password (spec §2). */
export function ResetPasswordPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  const { token = '' } = useParams();
  const [search] = useSearchParams();
  const email = search.get('email') ?? '';
  const { register, handleSubmit, formState } = useForm<ResetPasswordValues>({
    resolver: zodResolver(resetPasswordSchema),
    mode: 'onTouched',
    defaultValues: { password: '', passwordConfirmation: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const onSubmit = async (values: ResetPasswordValues) => {
    try {
      const result = await performPasswordReset({ email, token, ...values });
      if (result.sendToLogin) {
        // Two-factor is on: the panel did not sign the user in, as the code is still needed.
        await navigate('/auth/login', { replace: true });
        showAuthFlash('success', t('reset.changed_title'), t('reset.changed_two_factor'));
        return;
      }
      fullPage.navigate(result.redirectTo || '/');
    } catch (error) {
      showAuthFlash('error', t('common:flash.error'), httpErrorToHuman(error));
    }
  };

  return (
    <AuthCard title={t('reset.title')} heading={t('reset.heading')}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <TextField label={t('reset.email')} type="email" value={email} readOnly disabled />
        <TextField
          label={t('reset.password')}
          type="password"
          autoComplete="new-password"
          autoFocus
          hint={t('reset.password_hint')}
          error={errors.password?.message}
          touched={touchedFields.password || isSubmitted}
          {...register('password')}
        />
        <TextField
          label={t('reset.confirm')}
          type="password"
          autoComplete="new-password"
          error={errors.passwordConfirmation?.message}
          touched={touchedFields.passwordConfirmation || isSubmitted}
          {...register('passwordConfirmation')}
        />
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {t('reset.submit')}
        </Button>
        <div className="text-center">
          <Link to="/auth/login" className={AUTH_LINK}>
            {t('reset.back')}
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}
