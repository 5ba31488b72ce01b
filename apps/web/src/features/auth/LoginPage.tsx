import { useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { loginSchema, type LoginValues } from '@talon/shared/validation/auth';
import { login } from '../../api/auth.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { Captcha } from '../../components/Captcha.tsx';
import { TextField } from '../../components/Field.tsx';
import { AUTH_LINK, AuthCard } from './AuthCard.tsx';
import { showAuthFlash } from './useAuthFlash.ts';
import { fullPage } from '../../lib/navigation.ts';
import { safeReturnPath } from '../../lib/returnTo.ts';

export function LoginPage() {
  const { t } = useTranslation('auth');
  const navigate = useNavigate();
  /** the address opened before signing in (only a path on this panel), else the panel's answer */
  const next = safeReturnPath(useSearchParams()[0].get('next'));
  const recaptcha = useGlobalStore((s) => s.settings.recaptcha);
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const [token, setToken] = useState<string | null>(null);
  const [resetCaptcha, setResetCaptcha] = useState(0);
  const { register, handleSubmit, formState } = useForm<LoginValues>({
    resolver: zodResolver(loginSchema),
    mode: 'onTouched',
    defaultValues: { username: '', password: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const onSubmit = async (values: LoginValues) => {
    clearFlashes();
    if (recaptcha.enabled && !token) {
      showAuthFlash('error', t('common:flash.error'), t('captcha.required'));
      return;
    }
    try {
      const result = await login({ user: values.username, password: values.password, recaptchaToken: token });
      if (result.complete) {
        fullPage.navigate(next ?? (result.intended || '/'));
        return;
      }
      await navigate('/auth/login/checkpoint', { state: { token: result.confirmationToken, next } });
    } catch (error) {
      setResetCaptcha((n) => n + 1);
      showAuthFlash('error', t('common:flash.error'), httpErrorToHuman(error));
    }
  };

  return (
    <AuthCard title={t('login.title')} heading={t('login.heading')}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        <TextField
          label={t('login.username')}
          autoComplete="username"
          error={errors.username?.message}
          touched={touchedFields.username || isSubmitted}
          {...register('username')}
        />
        <TextField
          label={t('login.password')}
          type="password"
          autoComplete="current-password"
          error={errors.password?.message}
          touched={touchedFields.password || isSubmitted}
          {...register('password')}
        />
        {recaptcha.enabled && (
          <Captcha siteKey={recaptcha.siteKey} onToken={setToken} resetSignal={resetCaptcha} />
        )}
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {t('login.submit')}
        </Button>
        <div className="text-center">
          <Link to="/auth/password" className={AUTH_LINK}>
            {t('login.forgot')}
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}
