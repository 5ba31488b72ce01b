import { useEffect } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listLocations } from '../../../../api/application/locations.ts';
import { listNodes } from '../../../../api/application/nodes.ts';
import { allocationAddress, listFreeAllocations } from '../../../../api/application/servers.ts';
import { FormCheckbox, FormText, SelectField } from '../../components/index.ts';
import { useFieldControl } from '../../components/useFieldControl.ts';
import { CheckboxList } from './CheckboxList.tsx';
import type { NewServerValues } from './newServerForm.ts';

type Form = UseFormReturn<NewServerValues>;

/**
 * Where the new server runs: on a node with addresses chosen here (the node's free allocations),
 * or placed automatically on a node in the chosen locations (the API's `deploy`).
 */
export function WhereFields({ form }: { form: Form }) {
  const { t } = useTranslation('admin');
  const where = form.watch('where');
  return (
    <div className="space-y-4">
      <fieldset className="space-y-2">
        <legend className="mb-1 block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
          {t('server_new.where')}
        </legend>
        <div className="flex flex-col gap-2 sm:flex-row sm:gap-6">
          <label className="flex items-center gap-2 text-sm text-zinc-200">
            <input
              type="radio"
              value="node"
              className="focus-ring h-4 w-4 accent-sky-500"
              {...form.register('where')}
            />
            {t('server_new.where_node')}
          </label>
          <label className="flex items-center gap-2 text-sm text-zinc-200">
            <input
              type="radio"
              value="deploy"
              className="focus-ring h-4 w-4 accent-sky-500"
              {...form.register('where')}
            />
            {t('server_new.where_deploy')}
          </label>
        </div>
      </fieldset>
      {where === 'node' ? <NodeFields form={form} /> : <DeployFields form={form} />}
    </div>
  );
}

function NodeFields({ form }: { form: Form }) {
  const { t } = useTranslation('admin');
  const { setValue, getValues } = form;
  const node = form.watch('node');
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'choices'],
    queryFn: () => listNodes({ perPage: 100 }),
  });
  const free = useQuery({
    queryKey: ['admin', 'nodes', node, 'allocations', 'free'],
    queryFn: () => listFreeAllocations(node),
    enabled: node !== '',
  });

  // The simple case: the only (or first) node is chosen already.
  useEffect(() => {
    const first = nodes.data?.items[0];
    if (first && getValues('node') === '') setValue('node', String(first.id));
  }, [nodes.data, getValues, setValue]);

  // A node's addresses arrived: keep the choices that are still free, else take the first one.
  useEffect(() => {
    if (!free.data) return;
    const ids = new Set(free.data.map((a) => String(a.id)));
    if (!ids.has(getValues('allocation.default')))
      setValue('allocation.default', free.data[0] ? String(free.data[0].id) : '');
    setValue(
      'allocation.additional',
      getValues('allocation.additional').filter((id) => ids.has(id)),
    );
  }, [free.data, getValues, setValue]);

  const nodeError = form.formState.errors.node?.message;
  const primary = form.watch('allocation.default');
  const additional = useFieldControl(form, 'allocation.additional');
  const options = (free.data ?? []).map((a) => ({ value: String(a.id), label: allocationAddress(a) }));
  const noneFree = free.data !== undefined && free.data.length === 0;

  return (
    <div className="grid gap-4 md:grid-cols-2">
      <SelectField
        label={t('server_new.node')}
        error={nodeError}
        hint={nodes.data?.items.length === 0 ? t('server_new.no_nodes') : undefined}
        options={[
          { value: '', label: nodes.isPending ? t('table.loading') : t('server_new.choose_node') },
          ...(nodes.data?.items ?? []).map((n) => ({ value: String(n.id), label: n.name })),
        ]}
        {...form.register('node')}
      />
      <SelectField
        label={t('server_new.primary_allocation')}
        error={form.formState.errors.allocation?.default?.message}
        hint={noneFree ? t('server_new.no_free_allocations') : t('server_new.primary_allocation_hint')}
        options={[
          {
            value: '',
            label: free.isFetching ? t('table.loading') : t('server_new.choose_allocation'),
          },
          ...options,
        ]}
        {...form.register('allocation.default')}
      />
      <div className="md:col-span-2">
        <CheckboxList
          label={t('server_new.additional_allocations')}
          hint={t('server_new.additional_allocations_hint')}
          emptyText={t('server_new.no_other_allocations')}
          options={options.filter((o) => o.value !== primary)}
          value={additional.value.filter((id) => id !== primary)}
          onChange={additional.onChange}
          error={additional.error}
        />
      </div>
    </div>
  );
}

function DeployFields({ form }: { form: Form }) {
  const { t } = useTranslation('admin');
  const locations = useQuery({
    queryKey: ['admin', 'locations', 'choices'],
    queryFn: () => listLocations({ perPage: 100 }),
  });
  const chosen = useFieldControl(form, 'deploy.locations');
  return (
    <div className="grid gap-4 md:grid-cols-2">
      <div className="md:col-span-2">
        <CheckboxList
          label={t('server_new.locations')}
          hint={t('server_new.locations_hint')}
          emptyText={locations.isPending ? t('table.loading') : t('server_new.no_locations')}
          options={(locations.data?.items ?? []).map((l) => ({
            value: String(l.id),
            label: l.long ? `${l.short} — ${l.long}` : l.short,
          }))}
          value={chosen.value}
          onChange={chosen.onChange}
          error={chosen.error}
        />
      </div>
      <FormText
        form={form}
        name="deploy.port_range"
        label={t('server_new.port_range')}
        hint={t('server_new.port_range_hint')}
        placeholder="25565-25600"
      />
      <div className="md:pt-6">
        <FormCheckbox
          form={form}
          name="deploy.dedicated_ip"
          label={t('server_new.dedicated_ip')}
          hint={t('server_new.dedicated_ip_hint')}
        />
      </div>
    </div>
  );
}
