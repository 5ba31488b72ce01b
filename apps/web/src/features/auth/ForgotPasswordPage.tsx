import { useState } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { forgotPasswordSchema, type ForgotPasswordValues } from '@talon/shared/validation/auth';
import { requestPasswordResetEmail } from '../../api/auth.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { Captcha } from '../../components/Captcha.tsx';
import { TextField } from '../../components/Field.tsx';
import { AUTH_LINK, AuthCard } from './AuthCard.tsx';
import { showAuthFlash } from './useAuthFlash.ts';

export function ForgotPasswordPage() {
  const { t } = useTranslation('auth');
  const recaptcha = useGlobalStore((s) => s.settings.recaptcha);
  const [token, setToken] = useState<string | null>(null);
  const [resetCaptcha, setResetCaptcha] = useState(0);
  const { register, handleSubmit, formState, reset } = useForm<ForgotPasswordValues>({
    resolver: zodResolver(forgotPasswordSchema),
    mode: 'onTouched',
    defaultValues: { email: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const onSubmit = async (values: ForgotPasswordValues) => {
    if (recaptcha.enabled && !token) {
      showAuthFlash('error', t('common:flash.error'), t('captcha.required'));
      return;
    }
    try {
      const status = await requestPasswordResetEmail(values.email, token);
      reset({ email: '' });
      showAuthFlash('success', t('common:flash.success'), status);
    } catch (error) {
      showAuthFlash('error', t('common:flash.error'), httpErrorToHuman(error));
    } finally {
      setResetCaptcha((n) => n + 1);
    }
  };

  return (
    <AuthCard title={t('forgot.title')} heading={t('forgot.heading')}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <TextField
          label={t('forgot.email')}
          type="email"
          autoComplete="email"
          hint={t('forgot.hint')}
          error={errors.email?.message}
          touched={touchedFields.email || isSubmitted}
          {...register('email')}
        />
        {recaptcha.enabled && (
          <Captcha siteKey={recaptcha.siteKey} onToken={setToken} resetSignal={resetCaptcha} />
        )}
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {t('forgot.submit')}
        </Button>
        <div className="text-center">
          <Link to="/auth/login" className={AUTH_LINK}>
            {t('forgot.back')}
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}
