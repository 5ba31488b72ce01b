import type { UseFormReturn } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { FormText } from '../../components/index.ts';
import { OomKillerField } from '../OomKillerField.tsx';
import type { NewServerValues } from './newServerForm.ts';

/** Resource limits (MiB, %, IO weight, threads) and feature limits of a new server. */
export function LimitsFields({ form }: { form: UseFormReturn<NewServerValues> }) {
  const { t } = useTranslation('admin');
  const number = { inputMode: 'numeric' as const, autoComplete: 'off' };
  // Deployed by location, the node is not known until the server is made.
  const [where, node] = form.watch(['where', 'node']);
  const chosenNode = where === 'node' && node !== '' ? Number(node) : null;
  return (
    <div className="space-y-5">
      <div className="grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-3">
        <FormText
          form={form}
          name="limits.memory"
          label={t('server_new.memory')}
          hint={t('server_new.memory_hint')}
          {...number}
        />
        <FormText
          form={form}
          name="limits.swap"
          label={t('server_new.swap')}
          hint={t('server_new.swap_hint')}
          {...number}
        />
        <FormText
          form={form}
          name="limits.disk"
          label={t('server_new.disk')}
          hint={t('server_new.disk_hint')}
          {...number}
        />
        <FormText
          form={form}
          name="limits.cpu"
          label={t('server_new.cpu')}
          hint={t('server_new.cpu_hint')}
          {...number}
        />
        <FormText
          form={form}
          name="limits.io"
          label={t('server_new.io')}
          hint={t('server_new.io_hint')}
          {...number}
        />
        <FormText
          form={form}
          name="limits.threads"
          label={t('server_new.threads')}
          hint={t('server_new.threads_hint')}
          autoComplete="off"
        />
      </div>
      <OomKillerField form={form} name="oom_killer" nodeId={chosenNode} />
      <fieldset>
        <legend className="mb-2 text-sm font-semibold text-zinc-200">{t('server_new.feature_limits')}</legend>
        <div className="grid grid-cols-1 gap-4 sm:grid-cols-3">
          <FormText
            form={form}
            name="feature_limits.databases"
            label={t('server_new.databases')}
            {...number}
          />
          <FormText
            form={form}
            name="feature_limits.allocations"
            label={t('server_new.allocations')}
            hint={t('server_new.allocations_hint')}
            {...number}
          />
          <FormText form={form} name="feature_limits.backups" label={t('server_new.backups')} {...number} />
        </div>
      </fieldset>
    </div>
  );
}
