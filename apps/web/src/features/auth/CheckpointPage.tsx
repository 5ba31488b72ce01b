import { useState } from 'react';
import { Link, Navigate, useLocation } from 'react-router';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import * as z from 'zod/mini';
import { checkpointCodeSchema, checkpointRecoverySchema } from '@talon/shared/validation/auth';
import { loginCheckpoint } from '../../api/auth.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { Button } from '../../components/Button.tsx';
import { TextField } from '../../components/Field.tsx';
import { AUTH_LINK, AuthCard } from './AuthCard.tsx';
import { showAuthFlash } from './useAuthFlash.ts';
import { fullPage } from '../../lib/navigation.ts';

const codeMode = z.object({ code: checkpointCodeSchema.shape.code, recovery: z.string() });
const recoveryMode = z.object({ code: z.string(), recovery: checkpointRecoverySchema.shape.code });
type Values = z.infer<typeof codeMode>;

function tokenFrom(state: unknown): string | null {
  const token = (state as { token?: unknown } | null)?.token;
  return typeof token === 'string' && token.length > 0 ? token : null;
}

/** Second step of a 2FA login: an authenticator code, or a recovery code (spec §2). */
export function CheckpointPage() {
  const { t } = useTranslation('auth');
  const location = useLocation();
  const token = tokenFrom(location.state);
  // Checked by the sign-in page that put it there (a link cannot set router state).
  const next = (location.state as { next?: string | null } | null)?.next;
  const [recovery, setRecovery] = useState(false);
  const { register, handleSubmit, formState, reset, clearErrors } = useForm<Values>({
    resolver: zodResolver(recovery ? recoveryMode : codeMode),
    // No check on blur: leaving the empty field for "I Have My Device"/"Lost Device" would show an
    // error above the button between press and release, moving it from under the pointer so that
    // the first click was lost (issue 11). Errors appear on submit, then follow the typing.
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    defaultValues: { code: '', recovery: '' },
  });
  const { errors, isSubmitted, isSubmitting } = formState;

  if (!token) return <Navigate to="/auth/login" replace />;

  const toggle = () => {
    reset({ code: '', recovery: '' });
    clearErrors();
    setRecovery((r) => !r);
  };

  const onSubmit = async (values: Values) => {
    try {
      const result = await loginCheckpoint({
        token,
        code: recovery ? '' : values.code.trim(),
        recoveryToken: recovery ? values.recovery.trim() : undefined,
      });
      fullPage.navigate(next ?? (result.intended || '/'));
    } catch (error) {
      showAuthFlash('error', t('common:flash.error'), httpErrorToHuman(error));
    }
  };

  return (
    <AuthCard title={t('checkpoint.title')} heading={t('checkpoint.heading')}>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-5">
        {recovery ? (
          <TextField
            key="recovery"
            label={t('checkpoint.recovery')}
            hint={t('checkpoint.recovery_hint')}
            autoComplete="off"
            autoFocus
            error={errors.recovery?.message}
            touched={isSubmitted}
            {...register('recovery')}
          />
        ) : (
          <TextField
            key="code"
            label={t('checkpoint.code')}
            hint={t('checkpoint.code_hint')}
            inputMode="numeric"
            autoComplete="one-time-code"
            autoFocus
            error={errors.code?.message}
            touched={isSubmitted}
            {...register('code')}
          />
        )}
        <Button type="submit" className="w-full" isLoading={isSubmitting}>
          {t('checkpoint.submit')}
        </Button>
        <div className="flex flex-col items-center gap-3">
          <button type="button" onClick={toggle} className={AUTH_LINK}>
            {recovery ? t('checkpoint.use_code') : t('checkpoint.use_recovery')}
          </button>
          <Link to="/auth/login" className={AUTH_LINK}>
            {t('checkpoint.back')}
          </Link>
        </div>
      </form>
    </AuthCard>
  );
}
