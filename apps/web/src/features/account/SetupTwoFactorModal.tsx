import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { enableTwoFactorSchema, type EnableTwoFactorValues } from '@talon/shared/validation/account';
import { enableTwoFactor, getTwoFactorSetup, type TwoFactorSetup } from '../../api/account.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { FlashMessageRender } from '../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { CopyOnClick } from '../../components/CopyOnClick.tsx';
import { TextField } from '../../components/Field.tsx';
import { Modal } from '../../components/Modal.tsx';
import { Spinner } from '../../components/Spinner.tsx';
import { QrCode } from './QrCode.tsx';
import { RecoveryCodes } from './RecoveryCodes.tsx';

const KEY = 'account:two-factor';

/**
 * Two-factor setup (spec §4): QR code and secret, then a 6-digit code. On success the recovery
 * codes are shown once; the modal cannot be closed by Escape or background while they are shown,
 * and useTotp becomes true when it closes.
 */
export function SetupTwoFactorModal({ visible, onDismissed }: { visible: boolean; onDismissed: () => void }) {
  const { t } = useTranslation('account');
  const updateUser = useGlobalStore((s) => s.updateUser);
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const [setup, setSetup] = useState<TwoFactorSetup | null>(null);
  const [tokens, setTokens] = useState<string[] | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<EnableTwoFactorValues>({
    resolver: zodResolver(enableTwoFactorSchema),
    mode: 'onTouched',
    defaultValues: { code: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  useEffect(() => {
    if (!visible) return;
    let live = true;
    clearFlashes(KEY);
    setSetup(null);
    setTokens(null);
    reset({ code: '' });
    getTwoFactorSetup().then(
      (data) => live && setSetup(data),
      (error: unknown) => live && flashError(KEY, httpErrorToHuman(error)),
    );
    return () => {
      live = false;
    };
  }, [visible, clearFlashes, reset]);

  const close = () => {
    if (tokens) updateUser({ useTotp: true });
    clearFlashes(KEY);
    onDismissed();
  };

  const onSubmit = async (values: EnableTwoFactorValues) => {
    clearFlashes(KEY);
    try {
      setTokens(await enableTwoFactor(values.code));
    } catch (error) {
      flashError(KEY, httpErrorToHuman(error));
    }
  };

  if (tokens) {
    return (
      <Modal
        visible={visible}
        onDismissed={close}
        dismissable={false}
        title={t('two_factor.codes_title')}
        size="wide"
      >
        <RecoveryCodes tokens={tokens} onDone={close} />
      </Modal>
    );
  }

  return (
    <Modal
      visible={visible}
      onDismissed={close}
      title={t('two_factor.setup_title')}
      showSpinnerOverlay={isSubmitting}
    >
      <FlashMessageRender byKey={KEY} className="mb-4" />
      <p className="mb-4 text-sm text-zinc-300">{t('two_factor.setup_help')}</p>
      <div className="mb-4 flex flex-col items-center gap-3">
        {setup ? (
          <QrCode value={setup.imageUrlData} alt={t('two_factor.qr_alt')} />
        ) : (
          <Spinner size="large" />
        )}
        {setup && (
          <div className="w-full text-center">
            <p className="text-xs font-semibold tracking-wide text-zinc-400 uppercase">
              {t('two_factor.secret')}
            </p>
            <CopyOnClick text={setup.secret} className="mt-1 rounded px-2 py-1">
              <code data-testid="totp-secret" className="font-mono text-sm break-all text-zinc-100">
                {setup.secret}
              </code>
            </CopyOnClick>
          </div>
        )}
      </div>
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
        <TextField
          label={t('two_factor.code')}
          hint={t('two_factor.code_hint')}
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          error={errors.code?.message}
          touched={touchedFields.code || isSubmitted}
          {...register('code')}
        />
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button variant="secondary" onClick={close}>
            {t('two_factor.cancel')}
          </Button>
          <Button type="submit" disabled={!setup || isSubmitting}>
            {t('two_factor.submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
