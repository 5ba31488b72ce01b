import { useEffect, useRef } from 'react';
import { useForm, type Resolver } from 'react-hook-form';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listEggs, listNests } from '../../../../api/application/nests.ts';
import {
  getEggForServer,
  getServerVariables,
  updateServerStartup,
  type AdminServer,
  type EggVariableChoice,
  type ServerVariable,
} from '../../../../api/application/servers.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { Button } from '../../../../components/Button.tsx';
import { ContentBox } from '../../../../components/ContentBox.tsx';
import {
  FormCheckbox,
  FormText,
  FormTextArea,
  ItemLoader,
  SelectField,
  applyFieldErrors,
} from '../../components/index.ts';
import { useAdminServer } from '../ServerViewLayout.tsx';
import { eggQueryKey } from './AboutTab.tsx';
import { OutcomeMessage, refreshServers, useOutcome } from './outcome.tsx';
import {
  CUSTOM_IMAGE,
  imageChoiceFor,
  startupFieldForWire,
  startupResolver,
  toStartupBody,
  type StartupValues,
} from './startupForm.ts';

/** Startup: egg, variables, image and command (PATCH …/startup). */
export function ServerStartupTab() {
  const server = useAdminServer();
  const variables = useQuery({
    queryKey: ['admin', 'servers', 'variables', server.id],
    queryFn: () => getServerVariables(server.id),
  });
  return (
    <ItemLoader query={variables}>
      {(list) => <StartupForm server={server} serverVariables={list} />}
    </ItemLoader>
  );
}

function serverValues(
  server: AdminServer,
  variables: ServerVariable[],
  images: Record<string, string>,
): StartupValues {
  return {
    nest: String(server.nestId),
    egg: String(server.eggId),
    image_choice: imageChoiceFor(server.container.image, images),
    image: server.container.image,
    startup: server.container.startupCommand,
    environment: Object.fromEntries(variables.map((v) => [v.envVariable, v.serverValue ?? v.defaultValue])),
    skip_scripts: false,
  };
}

function StartupForm({
  server,
  serverVariables,
}: {
  server: AdminServer;
  serverVariables: ServerVariable[];
}) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const { outcome, succeeded, failed, clear } = useOutcome();
  const variablesRef = useRef<EggVariableChoice[]>(serverVariables);
  // The rules depend on the chosen egg's variables: the resolver reads the current ones.
  const resolver: Resolver<StartupValues> = (values, context, options) =>
    startupResolver(variablesRef.current)(values, context, options);
  const form = useForm<StartupValues>({ resolver, defaultValues: serverValues(server, serverVariables, {}) });
  const { isSubmitting } = form.formState;
  const nest = form.watch('nest');
  const egg = form.watch('egg');
  const imageChoice = form.watch('image_choice');
  const isServerEgg = egg === String(server.eggId);

  const nests = useQuery({
    queryKey: ['admin', 'server-view', 'nests'],
    queryFn: () => listNests({ perPage: 100 }),
  });
  const eggs = useQuery({
    queryKey: ['admin', 'server-view', 'eggs', nest],
    queryFn: () => listEggs(nest),
    enabled: nest !== '',
  });
  const eggDetail = useQuery({
    queryKey: eggQueryKey(Number(nest), Number(egg)),
    queryFn: () => getEggForServer(nest, egg),
    enabled: nest !== '' && egg !== '',
  });
  const images = eggDetail.data?.id === Number(egg) ? eggDetail.data.dockerImages : {};
  const variables: EggVariableChoice[] = isServerEgg ? serverVariables : (eggDetail.data?.variables ?? []);
  variablesRef.current = variables;

  // Once the server's egg is loaded, the image select can say which of its images is in use.
  const imagesKnown = eggDetail.data !== undefined && isServerEgg;
  useEffect(() => {
    if (imagesKnown && !form.formState.dirtyFields.image_choice)
      form.setValue('image_choice', imageChoiceFor(form.getValues('image'), images));
  }, [imagesKnown, eggDetail.data?.id]);

  // Switching to another egg takes its defaults once they are loaded (values of variables with
  // the same name are kept).
  const appliedFor = useRef<string>(String(server.eggId));
  // The values when the egg was switched: the new egg's fields register (empty) before its defaults arrive.
  const carriedValues = useRef<Record<string, string>>({});
  useEffect(() => {
    const detail = eggDetail.data;
    if (!detail || String(detail.id) !== egg || appliedFor.current === egg) return;
    appliedFor.current = egg;
    const carried = carriedValues.current;
    form.setValue(
      'environment',
      Object.fromEntries(
        detail.variables.map((v) => [v.envVariable, carried[v.envVariable] ?? v.defaultValue]),
      ),
      { shouldDirty: true },
    );
    form.setValue('startup', detail.startup, { shouldDirty: true });
    const first = Object.values(detail.dockerImages)[0] ?? '';
    form.setValue('image_choice', first || CUSTOM_IMAGE, { shouldDirty: true });
    form.setValue('image', first, { shouldDirty: true });
  }, [eggDetail.data, egg, form]);

  const chooseEgg = (value: string) => {
    form.clearErrors();
    if (appliedFor.current === form.getValues('egg'))
      carriedValues.current = { ...form.getValues('environment') };
    form.setValue('egg', value, { shouldDirty: true });
    if (value === String(server.eggId)) {
      // Back to the server's own egg: its own values again.
      appliedFor.current = value;
      const own = serverValues(server, serverVariables, images);
      form.setValue('environment', own.environment);
      form.setValue('startup', own.startup);
      form.setValue('image', own.image);
      form.setValue('image_choice', imageChoiceFor(own.image, images));
    }
  };

  const submit = async (values: StartupValues) => {
    clear();
    try {
      await updateServerStartup(server.id, toStartupBody(values, variables));
      form.reset(values);
      await refreshServers(client);
      succeeded(t('server_view.startup.saved'));
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, (wire) => startupFieldForWire(wire, variables)))
        failed(error);
    }
  };

  const eggLoading = egg !== '' && !isServerEgg && eggDetail.isPending;
  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-5">
      <ContentBox title={t('server_view.startup.egg_title')}>
        <div className="grid gap-4 md:grid-cols-2">
          <SelectField
            label={t('server_view.startup.nest')}
            value={nest}
            onChange={(event) => {
              form.setValue('nest', event.target.value, { shouldDirty: true });
              chooseEgg('');
            }}
            options={[
              ...(nests.data?.items.some((n) => String(n.id) === nest)
                ? []
                : [{ value: nest, label: `#${nest}` }]),
              ...(nests.data?.items ?? []).map((n) => ({ value: String(n.id), label: n.name })),
            ]}
          />
          <SelectField
            label={t('server_view.startup.egg')}
            value={egg}
            hint={t('server_view.startup.egg_hint')}
            error={form.formState.errors.egg?.message}
            onChange={(event) => chooseEgg(event.target.value)}
            options={[
              { value: '', label: t('server_view.startup.choose') },
              ...(eggs.data ?? []).map((e) => ({ value: String(e.id), label: e.name })),
            ]}
          />
        </div>
        {eggLoading && <p className="mt-3 text-sm text-zinc-400">{t('server_view.startup.egg_loading')}</p>}
        {eggDetail.error && (
          <p role="alert" className="mt-3 text-sm text-red-400">
            {t('server_view.startup.egg_failed', { error: httpErrorToHuman(eggDetail.error) })}
          </p>
        )}
      </ContentBox>

      <ContentBox title={t('server_view.startup.image_title')}>
        <div className="space-y-4">
          <SelectField
            label={t('server_view.startup.image')}
            value={imageChoice}
            onChange={(event) => {
              const choice = event.target.value;
              form.setValue('image_choice', choice, { shouldDirty: true });
              if (choice !== CUSTOM_IMAGE) form.setValue('image', choice, { shouldDirty: true });
            }}
            options={[
              ...Object.entries(images).map(([label, image]) => ({
                value: image,
                label: `${label} (${image})`,
              })),
              { value: CUSTOM_IMAGE, label: t('server_view.startup.image_custom') },
            ]}
          />
          {imageChoice === CUSTOM_IMAGE && (
            <FormText
              form={form}
              name="image"
              label={t('server_view.startup.custom_image')}
              autoComplete="off"
            />
          )}
          {imageChoice !== CUSTOM_IMAGE && form.formState.errors.image && (
            <p role="alert" className="text-xs text-red-400">
              {form.formState.errors.image.message}
            </p>
          )}
          <div className="space-y-2">
            <FormTextArea
              form={form}
              name="startup"
              rows={3}
              label={t('server_view.startup.startup')}
              hint={t('server_view.startup.startup_hint', { example: '{{SERVER_MEMORY}}' })}
            />
            {eggDetail.data && eggDetail.data.id === Number(egg) && (
              <Button
                variant="secondary"
                className="px-3 py-1.5 text-xs"
                onClick={() => form.setValue('startup', eggDetail.data.startup, { shouldDirty: true })}
              >
                {t('server_view.startup.reset_startup')}
              </Button>
            )}
          </div>
          <FormCheckbox
            form={form}
            name="skip_scripts"
            label={t('server_view.startup.skip_scripts')}
            hint={t('server_view.startup.skip_scripts_hint')}
          />
        </div>
      </ContentBox>

      <ContentBox title={t('server_view.startup.variables')}>
        {variables.length === 0 ? (
          <p className="text-sm text-zinc-400">
            {eggLoading ? t('server_view.startup.egg_loading') : t('server_view.startup.no_variables')}
          </p>
        ) : (
          <div className="grid gap-4 md:grid-cols-2">
            {variables.map((variable) => (
              <FormText
                key={`${egg}-${variable.envVariable}`}
                form={form}
                name={`environment.${variable.envVariable}`}
                label={variable.name}
                autoComplete="off"
                hint={variableHint(variable, t)}
              />
            ))}
          </div>
        )}
      </ContentBox>

      <OutcomeMessage outcome={outcome} />
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting} disabled={eggLoading}>
          {t('server_view.startup.save')}
        </Button>
      </div>
    </form>
  );
}

/** A variable's description, its name in commands, its rules and what the owner may do with it. */
function variableHint(
  variable: EggVariableChoice,
  t: (key: string, options?: Record<string, string>) => string,
) {
  const access = !variable.userViewable
    ? t('server_view.startup.owner_hidden')
    : variable.userEditable
      ? t('server_view.startup.owner_can_edit')
      : t('server_view.startup.owner_can_see');
  return [
    variable.description,
    `{{${variable.envVariable}}}`,
    variable.rules ? t('server_view.startup.rules', { rules: variable.rules }) : '',
    access,
  ]
    .filter(Boolean)
    .join(' · ');
}
