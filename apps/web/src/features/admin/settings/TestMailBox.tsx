import { useId, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { sendTestMail } from '../../../api/application/settings.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextField } from '../../../components/Field.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';

/**
 * "Send test mail": sends a mail with the saved settings and shows what the SMTP server answered
 * (its acceptance line, or its refusal / the connection error in words).
 */
export function TestMailBox({ unsaved }: { unsaved: boolean }) {
  const { t } = useTranslation('admin');
  const ownEmail = useGlobalStore((s) => s.user?.email ?? '');
  const [to, setTo] = useState('');
  const hintId = useId();
  const send = useMutation({ mutationFn: () => sendTestMail(to.trim() || undefined) });

  return (
    <div className="space-y-3 border-t border-zinc-800 pt-4">
      <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex-1">
          <TextField
            label={t('settings.mail.test_to')}
            type="email"
            value={to}
            placeholder={ownEmail}
            aria-describedby={hintId}
            onChange={(event) => setTo(event.target.value)}
          />
        </div>
        <Button variant="secondary" isLoading={send.isPending} onClick={() => send.mutate()}>
          {t('settings.mail.test_send')}
        </Button>
      </div>
      <p id={hintId} className={`text-xs ${unsaved ? 'text-amber-300' : 'text-zinc-400'}`}>
        {unsaved ? t('settings.mail.test_unsaved') : t('settings.mail.test_hint')}
      </p>
      {send.isSuccess && (
        <MessageBox type="success" title={t('settings.mail.test_sent')}>
          <span>
            {t('settings.mail.test_answer')} <code className="break-all">{send.data}</code>
          </span>
        </MessageBox>
      )}
      {send.isError && (
        <MessageBox type="error" title={t('settings.mail.test_failed')}>
          <span className="break-words">{httpErrorToHuman(send.error)}</span>
        </MessageBox>
      )}
    </div>
  );
}
