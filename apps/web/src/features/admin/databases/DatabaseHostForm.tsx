import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { DatabaseHostInput } from '../../../api/application/databaseHosts.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { listNodes } from '../../../api/application/nodes.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { FormSelect, FormText, SelectField, applyFieldErrors } from '../components/index.ts';
import {
  DEFAULT_PORTS,
  databaseHostFieldForWire,
  databaseHostResolver,
  toDatabaseHostInput,
  type DatabaseHostFormValues,
} from './databaseHostForm.ts';

/** The API's code for "connected, but cannot use this host" (unreachable, access denied, privileges). */
const CONNECTION_REFUSED = 'DatabaseHostConnectionException';

/**
 * Create or edit a database host. Saving makes the panel connect with these details and try
 * creating a database and a user first: when it cannot, the API says why (400) and this form shows
 * it above the button, nothing is saved. The password is write-only: blank on edit keeps it.
 */
export function DatabaseHostForm({
  mode,
  initial,
  otherNodeIds = [],
  onSave,
  savedNote,
}: {
  mode: 'create' | 'edit';
  initial: DatabaseHostFormValues;
  otherNodeIds?: number[];
  onSave: (input: DatabaseHostInput) => Promise<unknown>;
  /** Shown under the form after a save (the edit page's "connected and saved"). */
  savedNote?: string | null;
}) {
  const { t } = useTranslation('admin');
  const nodes = useQuery({
    queryKey: ['admin', 'nodes', 'choices'],
    queryFn: () => listNodes({ perPage: 100 }),
  });
  const [failure, setFailure] = useState<{ title: string; text: string } | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const form = useForm<DatabaseHostFormValues>({
    resolver: databaseHostResolver,
    defaultValues: initial,
  });
  const { isSubmitting } = form.formState;

  const engine = form.watch('engine');
  const onEngine = (next: 'mysql' | 'postgresql') => {
    const port = form.getValues('port');
    if (Object.values(DEFAULT_PORTS).includes(port)) form.setValue('port', DEFAULT_PORTS[next]);
  };
  const engineField = form.register('engine', {
    onChange: (e: { target: { value: 'mysql' | 'postgresql' } }) => onEngine(e.target.value),
  });

  const submit = async (values: DatabaseHostFormValues) => {
    setFailure(null);
    setNote(null);
    try {
      await onSave(toDatabaseHostInput(values, otherNodeIds));
      form.reset({ ...values, password: '' });
      setNote(savedNote ?? null);
    } catch (error) {
      if (applyFieldErrors(error, form.setError, databaseHostFieldForWire)) return;
      const refused = error instanceof HttpError && error.code === CONNECTION_REFUSED;
      setFailure({
        title: refused ? t('databases.connection_failed') : t('databases.save_failed'),
        text: httpErrorToHuman(error),
      });
    }
  };

  const nodeOptions = [
    { value: '', label: t('databases.no_node') },
    ...(nodes.data?.items ?? []).map((n) => ({ value: String(n.id), label: n.name })),
  ];
  if (initial.nodeId !== '' && !nodeOptions.some((o) => o.value === initial.nodeId))
    nodeOptions.push({ value: initial.nodeId, label: `#${initial.nodeId}` });

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <FormText
          form={form}
          name="name"
          label={t('databases.name')}
          hint={t('databases.name_hint')}
          autoComplete="off"
        />
        <SelectField
          label={t('databases.engine')}
          error={form.formState.errors.engine?.message}
          options={[
            { value: 'mysql', label: t('databases.engine_mysql') },
            { value: 'postgresql', label: t('databases.engine_postgresql') },
          ]}
          {...engineField}
        />
        <FormText
          form={form}
          name="host"
          label={t('databases.host_label')}
          hint={t('databases.host_hint')}
          placeholder="127.0.0.1"
          autoComplete="off"
        />
        <FormText
          form={form}
          name="port"
          label={t('databases.port')}
          inputMode="numeric"
          autoComplete="off"
        />
        <FormText
          form={form}
          name="username"
          label={t('databases.username')}
          hint={
            engine === 'postgresql'
              ? t('databases.username_hint_postgresql')
              : t('databases.username_hint_mysql')
          }
          autoComplete="off"
        />
        <FormText
          form={form}
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('databases.password')}
          hint={mode === 'edit' ? t('databases.password_hint_edit') : t('databases.password_hint_create')}
        />
        <FormText
          form={form}
          name="maxDatabases"
          inputMode="numeric"
          label={t('databases.max_databases')}
          hint={t('databases.max_databases_hint')}
          autoComplete="off"
        />
        <FormSelect
          form={form}
          name="nodeId"
          label={t('databases.node')}
          hint={t('databases.node_hint')}
          options={nodeOptions}
        />
      </div>
      {failure && (
        <MessageBox type="error" title={failure.title}>
          {failure.text}
        </MessageBox>
      )}
      {note && !failure && <MessageBox type="success">{note}</MessageBox>}
      <div className="flex flex-col gap-2 sm:flex-row sm:items-center sm:justify-end">
        <p className="text-xs text-zinc-400 sm:mr-auto" role="status">
          {isSubmitting ? t('databases.testing') : t('databases.test_hint')}
        </p>
        <Button type="submit" isLoading={isSubmitting}>
          {t('databases.test_and_save')}
        </Button>
      </div>
    </form>
  );
}
