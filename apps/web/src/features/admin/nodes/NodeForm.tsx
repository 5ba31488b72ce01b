import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useForm } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listLocations } from '../../../api/application/locations.ts';
import type { NodeInput } from '../../../api/application/nodes.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import {
  ADMIN_FLASH,
  FormCheckbox,
  FormSelect,
  FormText,
  FormTextArea,
  SelectField,
  applyFieldErrors,
} from '../components/index.ts';
import { nodeFieldForWire, nodeResolver, toNodeInput, type NodeFormValues } from './nodeForm.ts';

function Section({ legend, children }: { legend: string; children: ReactNode }) {
  return (
    <fieldset className="space-y-4 rounded-lg border border-zinc-800 p-4">
      <legend className="px-1 text-sm font-semibold text-zinc-200">{legend}</legend>
      {children}
    </fieldset>
  );
}

/**
 * Every field of a node (reference §5.3, plus its description), for creating and for the
 * Settings tab. `onSave` calls the API; a 422 lands beside its field, any other refusal is shown
 * above the page in the API's words.
 */
export function NodeForm({
  mode,
  initial,
  onSave,
}: {
  mode: 'create' | 'edit';
  initial: NodeFormValues;
  onSave: (input: NodeInput) => Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const form = useForm<NodeFormValues>({ resolver: nodeResolver, values: initial });
  const { isSubmitting } = form.formState;
  const locations = useQuery({
    queryKey: ['admin', 'locations', { perPage: 100 }],
    queryFn: () => listLocations({ perPage: 100, sort: 'short' }),
  });
  const noLocations = locations.data?.items.length === 0;

  const submit = async (values: NodeFormValues) => {
    useGlobalStore.getState().clearFlashes(ADMIN_FLASH);
    try {
      await onSave(toNodeInput(values));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, nodeFieldForWire))
        flashError(ADMIN_FLASH, httpErrorToHuman(error));
    }
  };

  const number = { inputMode: 'numeric' as const, autoComplete: 'off' };

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-5">
      <Section legend={t('nodes.form.identity')}>
        <div className="grid gap-4 md:grid-cols-2">
          <FormText
            form={form}
            name="name"
            label={t('nodes.form.name')}
            hint={t('nodes.form.name_hint')}
            autoComplete="off"
          />
          <div className="space-y-1">
            {/* Mounted once the options exist, so the select shows the node's location. */}
            {locations.data ? (
              <FormSelect
                form={form}
                name="location_id"
                label={t('nodes.form.location')}
                options={[
                  { value: '', label: t('nodes.form.location_choose') },
                  ...locations.data.items.map((l) => ({
                    value: String(l.id),
                    label: l.long ? `${l.short} (${l.long})` : l.short,
                  })),
                ]}
              />
            ) : (
              <SelectField
                label={t('nodes.form.location')}
                disabled
                options={[{ value: '', label: t('table.loading') }]}
              />
            )}
            {noLocations && (
              <p className="text-xs text-amber-300">
                {t('nodes.form.no_locations')}{' '}
                <Link to="/admin/locations" className="focus-ring rounded text-sky-300 underline">
                  {t('nodes.form.create_location')}
                </Link>
              </p>
            )}
            {locations.error && (
              <p role="alert" className="text-xs text-red-400">
                {httpErrorToHuman(locations.error)}
              </p>
            )}
          </div>
        </div>
        <FormTextArea
          form={form}
          name="description"
          rows={2}
          label={t('nodes.form.description')}
          hint={t('nodes.form.description_hint')}
        />
      </Section>

      <Section legend={t('nodes.form.connection')}>
        <div className="grid gap-4 md:grid-cols-2">
          <FormText
            form={form}
            name="fqdn"
            label={t('nodes.form.fqdn')}
            hint={t('nodes.form.fqdn_hint')}
            autoComplete="off"
            placeholder="node1.example.com"
          />
          <FormSelect
            form={form}
            name="scheme"
            label={t('nodes.form.scheme')}
            hint={t('nodes.form.scheme_hint')}
            options={[
              { value: 'https', label: t('nodes.form.scheme_https') },
              { value: 'http', label: t('nodes.form.scheme_http') },
            ]}
          />
        </div>
        <FormCheckbox
          form={form}
          name="behind_proxy"
          label={t('nodes.form.behind_proxy')}
          hint={t('nodes.form.behind_proxy_hint')}
        />
        <div className="grid gap-4 sm:grid-cols-3">
          <FormText
            form={form}
            name="daemon_listen"
            label={t('nodes.form.daemon_listen')}
            hint={t('nodes.form.daemon_listen_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="daemon_sftp"
            label={t('nodes.form.daemon_sftp')}
            hint={t('nodes.form.daemon_sftp_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="upload_size"
            label={t('nodes.form.upload_size')}
            hint={t('nodes.form.upload_size_hint')}
            {...number}
          />
        </div>
        <FormText
          form={form}
          name="daemon_base"
          label={t('nodes.form.daemon_base')}
          hint={t('nodes.form.daemon_base_hint')}
          autoComplete="off"
        />
      </Section>

      <Section legend={t('nodes.form.capacity')}>
        <p className="text-xs text-zinc-400">{t('nodes.form.capacity_hint')}</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <FormText form={form} name="memory" label={t('nodes.form.memory')} {...number} />
          <FormText
            form={form}
            name="memory_overallocate"
            label={t('nodes.form.memory_overallocate')}
            hint={t('nodes.form.overallocate_hint')}
            {...number}
          />
          <FormText form={form} name="disk" label={t('nodes.form.disk')} {...number} />
          <FormText
            form={form}
            name="disk_overallocate"
            label={t('nodes.form.disk_overallocate')}
            hint={t('nodes.form.overallocate_hint')}
            {...number}
          />
        </div>
      </Section>

      <Section legend={t('nodes.form.availability')}>
        <FormCheckbox
          form={form}
          name="public"
          label={t('nodes.form.public')}
          hint={t('nodes.form.public_hint')}
        />
        <FormCheckbox
          form={form}
          name="maintenance_mode"
          label={t('nodes.form.maintenance_mode')}
          hint={t('nodes.form.maintenance_mode_hint')}
        />
      </Section>

      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting}>
          {mode === 'create' ? t('nodes.create') : t('nodes.form.save')}
        </Button>
      </div>
    </form>
  );
}
