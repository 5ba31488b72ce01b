import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createNodeAllocations } from '../../../api/application/nodes.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { FormText, applyFieldErrors } from '../components/index.ts';
import {
  EMPTY_ALLOCATION,
  allocationErrorField,
  allocationFieldForWire,
  allocationResolver,
  splitPorts,
  type AllocationFormValues,
} from './allocationForm.ts';
import { flashNodes } from './flash.ts';

/**
 * Adds an address with ports and ranges. The API's precise 400s (bad CIDR mask, unresolvable
 * hostname, bad mapping, too many ports, out of range) land beside the field they are about.
 */
export function AddAllocationsForm({ nodeId, onAdded }: { nodeId: number; onAdded: () => Promise<unknown> }) {
  const { t } = useTranslation('admin');
  const form = useForm<AllocationFormValues>({
    resolver: allocationResolver,
    defaultValues: EMPTY_ALLOCATION,
  });

  const submit = async (values: AllocationFormValues) => {
    const ports = splitPorts(values.ports);
    const ip = values.ip.trim();
    try {
      await createNodeAllocations(nodeId, { ip, alias: values.alias.trim() || null, ports });
    } catch (error) {
      if (applyFieldErrors(error, form.setError, allocationFieldForWire)) return;
      const detail = httpErrorToHuman(error);
      const field = error instanceof HttpError ? allocationErrorField(error.code, detail) : null;
      if (field) form.setError(field, { type: 'server', message: detail });
      else form.setError('root', { type: 'server', message: detail });
      return;
    }
    form.reset(EMPTY_ALLOCATION);
    await onAdded();
    flashNodes('success', t('nodes.alloc.added', { ip, ports: ports.join(', ') }));
  };

  const rootError = form.formState.errors.root?.message;
  return (
    <ContentBox title={t('nodes.alloc.add_title')}>
      <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-4">
        <FormText
          form={form}
          name="ip"
          label={t('nodes.alloc.ip')}
          hint={t('nodes.alloc.ip_hint')}
          placeholder="203.0.113.10"
          autoComplete="off"
        />
        <FormText
          form={form}
          name="alias"
          label={t('nodes.alloc.alias')}
          hint={t('nodes.alloc.alias_hint')}
          placeholder="play.example.com"
          autoComplete="off"
        />
        <FormText
          form={form}
          name="ports"
          label={t('nodes.alloc.ports')}
          hint={t('nodes.alloc.ports_hint')}
          placeholder="25565-25600, 27015"
          autoComplete="off"
        />
        {rootError && (
          <p role="alert" className="text-sm text-red-400">
            {rootError}
          </p>
        )}
        <div className="flex justify-end">
          <Button type="submit" isLoading={form.formState.isSubmitting}>
            {t('nodes.alloc.add')}
          </Button>
        </div>
      </form>
    </ContentBox>
  );
}
