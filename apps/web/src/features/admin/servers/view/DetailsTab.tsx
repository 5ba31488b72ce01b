import { useForm } from 'react-hook-form';
import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { updateServerDetails } from '../../../../api/application/servers.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { FormText, FormTextArea, UserPicker, applyFieldErrors } from '../../components/index.ts';
import { useFieldControl } from '../../components/useFieldControl.ts';
import { useAdminServer } from '../ServerViewLayout.tsx';
import {
  detailsFieldForWire,
  detailsResolver,
  toDetailsBody,
  toDetailsValues,
  type CheckedDetails,
  type DetailsValues,
} from './detailsForm.ts';
import { OutcomeMessage, refreshServers, useOutcome } from './outcome.tsx';

/** Details: name, owner, external ID and description (PATCH …/details). */
export function ServerDetailsTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const client = useQueryClient();
  const { outcome, succeeded, failed, clear } = useOutcome();
  const form = useForm<DetailsValues, unknown, CheckedDetails>({
    resolver: detailsResolver,
    values: toDetailsValues(server),
    resetOptions: { keepDirtyValues: true },
  });
  const { isSubmitting, isDirty } = form.formState;
  const owner = useFieldControl(form, 'user');

  const submit = async (values: CheckedDetails) => {
    clear();
    const ownerChanged = values.user !== server.userId;
    try {
      await updateServerDetails(server.id, toDetailsBody(values));
      form.reset(values);
      await refreshServers(client);
      succeeded(ownerChanged ? t('server_view.details.saved_owner') : t('server_view.details.saved'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, detailsFieldForWire)) failed(error);
    }
  };

  return (
    <ContentBox title={t('server_view.details.title')}>
      <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-4">
        <div className="grid gap-4 md:grid-cols-2">
          <FormText form={form} name="name" label={t('server_view.details.name')} autoComplete="off" />
          <UserPicker
            label={t('server_view.details.owner')}
            value={owner.value}
            onChange={(id) => owner.onChange(id)}
            error={owner.error}
            hint={t('server_view.details.owner_hint')}
          />
          <FormText
            form={form}
            name="external_id"
            label={t('server_view.details.external_id')}
            hint={t('server_view.details.external_id_hint')}
            autoComplete="off"
          />
        </div>
        <FormTextArea form={form} name="description" label={t('server_view.details.description')} rows={3} />
        <OutcomeMessage outcome={outcome} />
        <div className="flex justify-end">
          <Button type="submit" isLoading={isSubmitting} disabled={!isDirty}>
            {t('server_view.details.save')}
          </Button>
        </div>
      </form>
    </ContentBox>
  );
}
