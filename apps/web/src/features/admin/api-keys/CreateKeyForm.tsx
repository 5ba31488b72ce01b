import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  KEY_RESOURCES,
  createApplicationKey,
  type ApplicationKey,
  type KeyPermissions,
} from '../../../api/application/apiKeys.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { ApiKeyCreatedModal } from '../../account/ApiKeyCreatedModal.tsx';
import { PermissionsPicker } from './PermissionsPicker.tsx';

export const APPLICATION_KEYS_QUERY = ['admin', 'api-keys'] as const;

const NO_RIGHTS = Object.fromEntries(KEY_RESOURCES.map((r) => [r, 0])) as KeyPermissions;

/** The 422 detail of one wire field (`description`, `allowed_ips.0`…), if the answer has one. */
function fieldError(error: unknown, prefix: string): string | undefined {
  if (!(error instanceof HttpError) || error.status !== 422) return undefined;
  const errors =
    (error.data as { errors?: { detail?: string; meta?: { source_field?: string } }[] }).errors ?? [];
  return errors.find((e) => e.meta?.source_field === prefix || e.meta?.source_field?.startsWith(`${prefix}.`))
    ?.detail;
}

/** Create an application key: description, optional allowed addresses, a right per resource. */
export function CreateKeyForm() {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const [description, setDescription] = useState('');
  const [ips, setIps] = useState('');
  const [permissions, setPermissions] = useState<KeyPermissions>(NO_RIGHTS);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [touched, setTouched] = useState(false);
  const [shownKey, setShownKey] = useState<string | null>(null);

  const descriptionError =
    description.trim() === ''
      ? t('api.description_required')
      : description.length > 500
        ? t('api.description_too_long')
        : fieldError(error, 'description');

  const submit = async () => {
    setTouched(true);
    if (description.trim() === '' || description.length > 500) return;
    setBusy(true);
    setError(null);
    try {
      const allowedIps = ips
        .split(/[\s,]+/)
        .map((ip) => ip.trim())
        .filter(Boolean);
      const created = await createApplicationKey({
        description: description.trim(),
        allowedIps,
        permissions,
      });
      client.setQueryData<ApplicationKey[]>(APPLICATION_KEYS_QUERY, (keys) => [...(keys ?? []), created.key]);
      setShownKey(created.secretToken);
      setDescription('');
      setIps('');
      setPermissions(NO_RIGHTS);
      setTouched(false);
    } catch (cause) {
      setError(cause);
    } finally {
      setBusy(false);
    }
  };

  const ipsError = fieldError(error, 'allowed_ips');
  const otherError = error && !fieldError(error, 'description') && !ipsError ? httpErrorToHuman(error) : null;

  return (
    <form
      noValidate
      className="space-y-4"
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <ApiKeyCreatedModal apiKey={shownKey} onClose={() => setShownKey(null)} />
      {otherError && <MessageBox type="error">{otherError}</MessageBox>}
      <TextField
        label={t('api.description_label')}
        value={description}
        maxLength={500}
        onChange={(event) => setDescription(event.target.value)}
        onBlur={() => setTouched(true)}
        error={descriptionError}
        touched={touched || Boolean(fieldError(error, 'description'))}
        hint={t('api.description_hint')}
      />
      <TextAreaField
        label={t('api.allowed_ips')}
        value={ips}
        rows={2}
        onChange={(event) => setIps(event.target.value)}
        error={ipsError}
        touched={Boolean(ipsError)}
        hint={t('api.allowed_ips_hint')}
      />
      <PermissionsPicker value={permissions} onChange={setPermissions} disabled={busy} />
      <div className="flex justify-end">
        <Button type="submit" isLoading={busy}>
          {t('api.create')}
        </Button>
      </div>
    </form>
  );
}
