import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import {
  createApiKeySchema,
  parseAllowedIps,
  type CreateApiKeyValues,
} from '@talon/shared/validation/account';
import { createApiKey } from '../../api/apiKeys.ts';
import { httpErrorToHuman } from '../../api/errors.ts';
import { flashError, useGlobalStore } from '../../app/store.ts';
import { Button } from '../../components/Button.tsx';
import { TextAreaField, TextField } from '../../components/Field.tsx';
import { SpinnerOverlay } from '../../components/Spinner.tsx';
import { ApiKeyCreatedModal } from './ApiKeyCreatedModal.tsx';
import { useApiKeysCache } from './apiKeysQuery.ts';

/** Create API Key: description and allowed IPs, one per line (spec §2). */
export function CreateApiKeyForm() {
  const { t } = useTranslation('account');
  const clearFlashes = useGlobalStore((s) => s.clearFlashes);
  const updateKeys = useApiKeysCache();
  const [shownKey, setShownKey] = useState<string | null>(null);
  const { register, handleSubmit, formState, reset } = useForm<CreateApiKeyValues>({
    resolver: zodResolver(createApiKeySchema),
    mode: 'onTouched',
    defaultValues: { description: '', allowedIps: '' },
  });
  const { errors, touchedFields, isSubmitted, isSubmitting } = formState;

  const onSubmit = async (values: CreateApiKeyValues) => {
    clearFlashes('account');
    try {
      const key = await createApiKey(values.description, parseAllowedIps(values.allowedIps));
      const { secretToken, ...listed } = key;
      updateKeys((keys) => [...keys, listed]);
      reset({ description: '', allowedIps: '' });
      setShownKey(`${key.identifier}${secretToken}`);
    } catch (error) {
      flashError('account', httpErrorToHuman(error));
    }
  };

  return (
    <>
      <ApiKeyCreatedModal apiKey={shownKey} onClose={() => setShownKey(null)} />
      <form noValidate onSubmit={handleSubmit(onSubmit)} className="relative space-y-4">
        <SpinnerOverlay visible={isSubmitting} />
        <TextField
          label={t('api.description')}
          hint={t('api.description_hint')}
          error={errors.description?.message}
          touched={touchedFields.description || isSubmitted}
          {...register('description')}
        />
        <TextAreaField
          label={t('api.allowed_ips')}
          hint={t('api.allowed_ips_hint')}
          rows={4}
          spellCheck={false}
          error={errors.allowedIps?.message}
          touched={touchedFields.allowedIps || isSubmitted}
          {...register('allowedIps')}
        />
        <div className="flex justify-end">
          <Button type="submit" disabled={isSubmitting}>
            {t('api.create')}
          </Button>
        </div>
      </form>
    </>
  );
}
