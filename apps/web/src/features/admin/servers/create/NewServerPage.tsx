import { useRef, useState } from 'react';
import { useForm, type Resolver, type UseFormSetError } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { useTranslation } from 'react-i18next';
import {
  createServer,
  getEggForServer,
  type EggVariableChoice,
} from '../../../../api/application/servers.ts';
import { HttpError, httpErrorToHuman } from '../../../../api/errors.ts';
import { useGlobalStore } from '../../../../app/store.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import { MessageBox } from '../../../../components/MessageBox.tsx';
import {
  ADMIN_FLASH,
  AdminPage,
  FormCheckbox,
  FormText,
  FormTextArea,
  UserPicker,
  applyFieldErrors,
} from '../../components/index.ts';
import { useFieldControl } from '../../components/useFieldControl.ts';
import { EggFields } from './EggFields.tsx';
import { NewOwnerDialog } from './NewOwnerDialog.tsx';
import { LimitsFields } from './LimitsFields.tsx';
import { WhereFields } from './WhereFields.tsx';
import {
  NEW_SERVER_DEFAULTS,
  newServerFieldForWire,
  newServerResolver,
  toCreateServerBody,
  type NewServerValues,
} from './newServerForm.ts';

/** The 422 details the form could not put beside a field (a field it does not show). */
function unplacedDetails(error: unknown, variables: EggVariableChoice[]): string[] {
  if (!(error instanceof HttpError) || error.status !== 422) return [];
  const entries = (error.data as { errors?: { detail?: string; meta?: { source_field?: string } }[] } | null)
    ?.errors;
  return (entries ?? [])
    .filter((e) => !e.meta?.source_field || newServerFieldForWire(e.meta.source_field, variables) === null)
    .map((e) => e.detail ?? '')
    .filter(Boolean);
}

/** /admin/servers/new: the application API's server creation (reference §5.5) as a form. */
export function NewServerPage() {
  const { t } = useTranslation('admin');
  const navigate = useNavigate();
  const client = useQueryClient();
  const [problem, setProblem] = useState<string[]>([]);
  const [creatingOwner, setCreatingOwner] = useState(false);

  // The schema depends on the chosen egg's variables; the resolver reads the current ones.
  const variablesRef = useRef<EggVariableChoice[]>([]);
  const resolver: Resolver<NewServerValues> = (values, context, options) =>
    newServerResolver(variablesRef.current)(values, context, options);
  const form = useForm<NewServerValues>({ resolver, defaultValues: NEW_SERVER_DEFAULTS });
  const owner = useFieldControl(form, 'user');

  const nest = form.watch('nest');
  const eggId = form.watch('egg');
  const egg = useQuery({
    queryKey: ['admin', 'nests', nest, 'eggs', eggId, 'for-server'],
    queryFn: () => getEggForServer(nest, eggId),
    enabled: nest !== '' && eggId !== '',
  });
  const chosenEgg = egg.data && String(egg.data.id) === eggId ? egg.data : undefined;
  variablesRef.current = chosenEgg?.variables ?? [];

  const submit = async (values: NewServerValues) => {
    setProblem([]);
    useGlobalStore.getState().clearFlashes(ADMIN_FLASH);
    const variables = variablesRef.current;
    try {
      const server = await createServer(toCreateServerBody(values, variables));
      await client.invalidateQueries({ queryKey: ['admin', 'servers'] });
      useGlobalStore.getState().addFlash({
        key: ADMIN_FLASH,
        type: 'success',
        message: t('server_new.created', { name: server.name }),
      });
      await navigate(`/admin/servers/view/${server.id}`);
    } catch (error) {
      let focused = false;
      const setErrorFocusingFirst: UseFormSetError<NewServerValues> = (name, message) => {
        form.setError(name, message, { shouldFocus: !focused });
        focused = true;
      };
      const placed = applyFieldErrors<NewServerValues>(error, setErrorFocusingFirst, (wire) =>
        newServerFieldForWire(wire, variables),
      );
      const rest = unplacedDetails(error, variables);
      if (!placed) setProblem([httpErrorToHuman(error)]);
      else if (rest.length > 0) setProblem(rest);
    }
  };

  const { isSubmitting, errors, submitCount } = form.formState;
  const invalid = submitCount > 0 && Object.keys(errors).length > 0;

  return (
    <AdminPage title={t('servers.create')} description={t('servers.create_description')}>
      <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-6">
        <ContentBox title={t('server_new.section_about')}>
          <div className="grid gap-4 md:grid-cols-2">
            <div className="space-y-2">
              <UserPicker
                inputRef={owner.ref}
                label={t('server_new.owner')}
                hint={t('server_new.owner_hint')}
                value={owner.value === '' ? null : Number(owner.value)}
                onChange={(id) => owner.onChange(id === null ? '' : String(id))}
                error={owner.error}
              />
              <Button type="button" variant="secondary" onClick={() => setCreatingOwner(true)}>
                {t('server_new.new_owner')}
              </Button>
            </div>
            <FormText form={form} name="name" label={t('server_new.name')} autoComplete="off" />
            <FormText
              form={form}
              name="external_id"
              label={t('server_new.external_id')}
              hint={t('server_new.external_id_hint')}
              autoComplete="off"
            />
            <FormTextArea form={form} name="description" rows={2} label={t('server_new.description')} />
          </div>
        </ContentBox>

        <ContentBox title={t('server_new.section_where')}>
          <WhereFields form={form} />
        </ContentBox>

        <ContentBox title={t('server_new.section_egg')}>
          {egg.error ? (
            <MessageBox type="error">{httpErrorToHuman(egg.error)}</MessageBox>
          ) : (
            <EggFields form={form} egg={chosenEgg} />
          )}
        </ContentBox>

        <ContentBox title={t('server_new.section_limits')}>
          <LimitsFields form={form} />
        </ContentBox>

        <ContentBox title={t('server_new.section_install')}>
          <div className="space-y-3">
            <FormCheckbox
              form={form}
              name="start_on_completion"
              label={t('server_new.start_on_completion')}
            />
            <FormCheckbox
              form={form}
              name="skip_scripts"
              label={t('server_new.skip_scripts')}
              hint={t('server_new.skip_scripts_hint')}
            />
          </div>
        </ContentBox>

        {problem.length > 0 && (
          <MessageBox type="error" title={t('server_new.not_created')}>
            {problem.join(' ')}
          </MessageBox>
        )}
        {invalid && problem.length === 0 && (
          <p role="alert" className="text-sm text-red-400">
            {t('server_new.fix_fields')}
          </p>
        )}
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="submit" isLoading={isSubmitting}>
            {t('servers.create')}
          </Button>
        </div>
      </form>
      <NewOwnerDialog
        visible={creatingOwner}
        onDismissed={() => setCreatingOwner(false)}
        onCreated={(user) => {
          owner.onChange(String(user.id));
          setCreatingOwner(false);
        }}
      />
    </AdminPage>
  );
}
