import { useState } from 'react';
import { useForm, type UseFormReturn } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import {
  allocationAddress,
  listFreeAllocations,
  updateServerBuild,
  type AdminServer,
} from '../../../../api/application/servers.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { FormSelect, FormText, SelectField, applyFieldErrors } from '../../components/index.ts';
import { OomKillerField } from '../OomKillerField.tsx';
import { useAdminServer } from '../ServerViewLayout.tsx';
import {
  buildFieldForWire,
  buildResolver,
  toBuildBody,
  toBuildValues,
  type BuildValues,
} from './buildForm.ts';
import { OutcomeMessage, refreshServers, useOutcome } from './outcome.tsx';

function freeAllocationsKey(nodeId: number) {
  return ['admin', 'server-view', 'free-allocations', nodeId] as const;
}

/** Build: resource and feature limits and the server's addresses (PATCH …/build). */
export function ServerBuildTab() {
  const { t } = useTranslation('admin');
  const server = useAdminServer();
  const client = useQueryClient();
  const { outcome, succeeded, failed, clear } = useOutcome();
  const form = useForm<BuildValues>({ resolver: buildResolver, values: toBuildValues(server) });
  const { isSubmitting } = form.formState;

  const submit = async (values: BuildValues) => {
    clear();
    try {
      await updateServerBuild(server.id, toBuildBody(values));
      form.reset({ ...values, add_allocations: [], remove_allocations: [] });
      await Promise.all([
        refreshServers(client),
        client.invalidateQueries({ queryKey: freeAllocationsKey(server.nodeId) }),
      ]);
      succeeded(t('server_view.build.saved'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, buildFieldForWire)) failed(error);
    }
  };

  const number = { inputMode: 'numeric' as const, autoComplete: 'off' };
  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-5">
      <ContentBox title={t('server_view.build.limits')}>
        <div className="grid gap-4 sm:grid-cols-2 lg:grid-cols-3">
          <FormText
            form={form}
            name="limits.memory"
            label={t('server_view.build.memory')}
            hint={t('server_view.build.memory_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="limits.swap"
            label={t('server_view.build.swap')}
            hint={t('server_view.build.swap_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="limits.disk"
            label={t('server_view.build.disk')}
            hint={t('server_view.build.disk_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="limits.cpu"
            label={t('server_view.build.cpu')}
            hint={t('server_view.build.cpu_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="limits.threads"
            label={t('server_view.build.threads')}
            hint={t('server_view.build.threads_hint')}
            autoComplete="off"
          />
          <FormText
            form={form}
            name="limits.io"
            label={t('server_view.build.io')}
            hint={t('server_view.build.io_hint')}
            {...number}
          />
        </div>
        <div className="mt-4">
          <OomKillerField form={form} name="oom_killer" nodeId={server.nodeId} />
        </div>
      </ContentBox>

      <ContentBox title={t('server_view.build.feature_limits')}>
        <div className="grid gap-4 sm:grid-cols-3">
          <FormText
            form={form}
            name="feature_limits.databases"
            label={t('server_view.build.databases')}
            hint={t('server_view.build.databases_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="feature_limits.allocations"
            label={t('server_view.build.allocations')}
            hint={t('server_view.build.allocations_hint')}
            {...number}
          />
          <FormText
            form={form}
            name="feature_limits.backups"
            label={t('server_view.build.backups')}
            hint={t('server_view.build.backups_hint')}
            {...number}
          />
        </div>
      </ContentBox>

      <ContentBox title={t('server_view.build.allocations_title')}>
        <AllocationsEditor server={server} form={form} />
      </ContentBox>

      <OutcomeMessage outcome={outcome} />
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting}>
          {t('server_view.build.save')}
        </Button>
      </div>
    </form>
  );
}

/**
 * The server's addresses: which is primary, which to remove, and free ones of its node to add.
 * Nothing changes until the build is saved.
 */
function AllocationsEditor({ server, form }: { server: AdminServer; form: UseFormReturn<BuildValues> }) {
  const { t } = useTranslation('admin');
  const free = useQuery({
    queryKey: freeAllocationsKey(server.nodeId),
    queryFn: () => listFreeAllocations(server.nodeId),
  });
  const [toAdd, setToAdd] = useState('');
  const adding = form.watch('add_allocations');
  const removing = form.watch('remove_allocations');

  const assigned = server.allocations;
  const pending = (free.data ?? []).filter((a) => adding.includes(String(a.id)));
  const addable = (free.data ?? []).filter((a) => !adding.includes(String(a.id)));
  const primaryChoices = [...assigned.filter((a) => !removing.includes(String(a.id))), ...pending];

  const setList = (name: 'add_allocations' | 'remove_allocations', list: string[]) =>
    form.setValue(name, list, { shouldDirty: true });

  const add = () => {
    const id = toAdd || (addable[0] ? String(addable[0].id) : '');
    if (!id) return;
    setList('add_allocations', [...adding, id]);
    setToAdd('');
  };

  return (
    <div className="space-y-5">
      <FormSelect
        form={form}
        name="allocation"
        label={t('server_view.build.primary')}
        hint={t('server_view.build.primary_hint')}
        options={primaryChoices.map((a) => ({ value: String(a.id), label: allocationAddress(a) }))}
      />

      <div>
        <h3 className="mb-2 text-xs font-semibold tracking-wide text-zinc-300 uppercase">
          {t('server_view.build.assigned')}
        </h3>
        <ul className="divide-y divide-zinc-800 rounded-md border border-zinc-800">
          {assigned.map((allocation) => {
            const id = String(allocation.id);
            const address = allocationAddress(allocation);
            const marked = removing.includes(id);
            return (
              <li key={id} className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm">
                <span
                  className={`min-w-0 break-all font-mono ${marked ? 'text-zinc-500 line-through' : 'text-zinc-100'}`}
                >
                  {address}
                  {allocation.id === server.allocationId && (
                    <span className="ml-2 rounded bg-sky-500/15 px-1.5 py-0.5 font-sans text-xs text-sky-300">
                      {t('server_view.build.primary_tag')}
                    </span>
                  )}
                  {marked && (
                    <span className="ml-2 font-sans text-xs text-amber-300">
                      {t('server_view.build.removing')}
                    </span>
                  )}
                </span>
                <label className="flex items-center gap-2 text-zinc-300">
                  <input
                    type="checkbox"
                    checked={marked}
                    aria-label={t('server_view.build.remove', { address })}
                    onChange={(event) =>
                      setList(
                        'remove_allocations',
                        event.target.checked ? [...removing, id] : removing.filter((r) => r !== id),
                      )
                    }
                    className="focus-ring h-4 w-4 rounded border-zinc-600 bg-zinc-900 accent-red-500"
                  />
                  <span aria-hidden="true">{t('server_view.build.remove_short')}</span>
                </label>
              </li>
            );
          })}
          {pending.map((allocation) => {
            const address = allocationAddress(allocation);
            return (
              <li
                key={allocation.id}
                className="flex flex-wrap items-center justify-between gap-2 px-3 py-2 text-sm"
              >
                <span className="min-w-0 break-all font-mono text-emerald-300">
                  {address}
                  <span className="ml-2 font-sans text-xs">{t('server_view.build.adding')}</span>
                </span>
                <Button
                  variant="ghost"
                  className="px-2 py-1"
                  onClick={() =>
                    setList(
                      'add_allocations',
                      adding.filter((a) => a !== String(allocation.id)),
                    )
                  }
                >
                  {t('server_view.build.undo_add', { address })}
                </Button>
              </li>
            );
          })}
        </ul>
      </div>

      {free.error ? (
        <p role="alert" className="text-sm text-red-400">
          {t('server_view.build.free_failed', { error: httpErrorToHuman(free.error) })}
        </p>
      ) : free.isPending ? (
        <p className="text-sm text-zinc-400">{t('server_view.build.free_loading')}</p>
      ) : addable.length === 0 ? (
        <p className="text-sm text-zinc-400">{t('server_view.build.no_free')}</p>
      ) : (
        <div className="flex flex-col gap-2 sm:flex-row sm:items-end">
          <div className="min-w-0 flex-1">
            <SelectField
              label={t('server_view.build.add')}
              hint={t('server_view.build.add_hint')}
              value={toAdd || String(addable[0]!.id)}
              onChange={(event) => setToAdd(event.target.value)}
              options={addable.map((a) => ({ value: String(a.id), label: allocationAddress(a) }))}
            />
          </div>
          <Button variant="secondary" onClick={add} className="sm:mb-5">
            {t('server_view.build.add_button')}
          </Button>
        </div>
      )}
    </div>
  );
}
