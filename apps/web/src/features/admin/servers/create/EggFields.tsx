import { useEffect, useId, useRef } from 'react';
import type { UseFormReturn } from 'react-hook-form';
import { useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { listEggs, listNests } from '../../../../api/application/nests.ts';
import type { EggForServer, EggVariableChoice } from '../../../../api/application/servers.ts';
import { FormTextArea, FormText, SelectField } from '../../components/index.ts';
import { useFieldControl } from '../../components/useFieldControl.ts';
import { variableInputKind } from '../../../server/startup/variableInput.ts';
import { splitVariableRules } from '@talon/shared/eggs/variable-rules';
import { CUSTOM_IMAGE, type NewServerValues } from './newServerForm.ts';

type Form = UseFormReturn<NewServerValues>;

const FIELD =
  'focus-ring block w-full rounded-md border bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500';

/**
 * What the server runs: nest → egg, the Docker image (one of the egg's or typed in), the startup
 * command and the egg's variables. Choosing an egg fills in its image, command and defaults.
 */
export function EggFields({ form, egg }: { form: Form; egg: EggForServer | undefined }) {
  const { t } = useTranslation('admin');
  const { setValue, getValues } = form;
  const nest = form.watch('nest');
  const eggId = form.watch('egg');
  const imageChoice = form.watch('image_choice');
  const nestField = form.register('nest');
  const nests = useQuery({
    queryKey: ['admin', 'nests', 'choices'],
    queryFn: () => listNests({ perPage: 100 }),
  });
  const eggs = useQuery({
    queryKey: ['admin', 'nests', nest, 'eggs'],
    queryFn: () => listEggs(nest),
    enabled: nest !== '',
  });

  useEffect(() => {
    const first = nests.data?.items[0];
    if (first && getValues('nest') === '') setValue('nest', String(first.id));
  }, [nests.data, getValues, setValue]);

  // Another nest: its first egg, unless the chosen one is in it.
  useEffect(() => {
    if (!eggs.data) return;
    if (!eggs.data.some((e) => String(e.id) === getValues('egg')))
      setValue('egg', eggs.data[0] ? String(eggs.data[0].id) : '');
  }, [eggs.data, getValues, setValue]);

  // A newly chosen egg fills in its image, startup command and variable defaults once.
  const applied = useRef<number | null>(null);
  useEffect(() => {
    if (!egg || applied.current === egg.id) return;
    applied.current = egg.id;
    const firstImage = Object.values(egg.dockerImages)[0];
    setValue('image_choice', firstImage ?? CUSTOM_IMAGE);
    setValue('docker_image', firstImage ?? '');
    setValue('startup', egg.startup);
    setValue('environment', Object.fromEntries(egg.variables.map((v) => [v.envVariable, v.defaultValue])));
  }, [egg, setValue]);

  const errors = form.formState.errors;
  const images = Object.entries(egg?.dockerImages ?? {});

  return (
    <div className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <SelectField
          label={t('server_new.nest')}
          options={[
            { value: '', label: nests.isPending ? t('table.loading') : t('server_new.choose_nest') },
            ...(nests.data?.items ?? []).map((n) => ({ value: String(n.id), label: n.name })),
          ]}
          {...nestField}
          onChange={(event) => {
            // The egg goes with the nest change, in the same render: otherwise the chosen egg
            // would be asked for under the new nest (a 404) until that nest's eggs arrive.
            setValue('egg', '');
            void nestField.onChange(event);
          }}
        />
        <SelectField
          label={t('server_new.egg')}
          error={errors.egg?.message}
          hint={eggs.data?.length === 0 ? t('server_new.no_eggs') : undefined}
          options={[
            { value: '', label: eggs.isFetching ? t('table.loading') : t('server_new.choose_egg') },
            ...(eggs.data ?? []).map((e) => ({ value: String(e.id), label: e.name })),
          ]}
          {...form.register('egg')}
        />
        <SelectField
          label={t('server_new.image')}
          error={imageChoice === CUSTOM_IMAGE ? undefined : errors.docker_image?.message}
          value={imageChoice}
          onChange={(event) => {
            setValue('image_choice', event.target.value);
            if (event.target.value !== CUSTOM_IMAGE)
              setValue('docker_image', event.target.value, { shouldValidate: form.formState.isSubmitted });
          }}
          options={[
            ...(images.length === 0 && eggId === ''
              ? [{ value: '', label: t('server_new.choose_egg_first') }]
              : []),
            ...images.map(([label, image]) => ({ value: image, label: `${label} (${image})` })),
            { value: CUSTOM_IMAGE, label: t('server_new.custom_image') },
          ]}
        />
        {imageChoice === CUSTOM_IMAGE && (
          <FormText
            form={form}
            name="docker_image"
            label={t('server_new.custom_image_label')}
            placeholder="ghcr.io/owner/image:tag"
          />
        )}
      </div>
      <FormTextArea
        form={form}
        name="startup"
        rows={2}
        label={t('server_new.startup')}
        hint={t('server_new.startup_hint')}
      />
      {egg && egg.variables.length > 0 && (
        <fieldset className="space-y-3">
          <legend className="text-sm font-semibold text-zinc-200">{t('server_new.variables')}</legend>
          <div className="grid gap-4 pt-2 md:grid-cols-2">
            {egg.variables.map((variable) => (
              <VariableField key={variable.envVariable} form={form} variable={variable} />
            ))}
          </div>
        </fieldset>
      )}
    </div>
  );
}

/** One egg variable: its field (text, a list for `in:`, on/off for `boolean`), description and rules. */
function VariableField({ form, variable }: { form: Form; variable: EggVariableChoice }) {
  const { t } = useTranslation('admin');
  const id = useId();
  const kind = variableInputKind(splitVariableRules(variable.rules));
  const field = useFieldControl(form, `environment.${variable.envVariable}`);
  const error = field.error;
  const value = field.value ?? '';
  const common = {
    id,
    ref: field.ref,
    name: field.name,
    onBlur: field.onBlur,
    'aria-invalid': error !== undefined,
    'aria-describedby': `${error ? `${id}-error ` : ''}${id}-about`,
    className: `${FIELD} ${error ? 'border-red-500' : 'border-zinc-700 hover:border-zinc-500'}`,
  };
  const options =
    kind.kind === 'boolean'
      ? [
          { value: '1', label: t('common.on') },
          { value: '0', label: t('common.off') },
        ]
      : kind.kind === 'select'
        ? kind.options.map((o) => ({ value: o, label: o === '' ? t('server_new.empty_value') : o }))
        : null;
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {variable.name}
      </label>
      {options ? (
        <select {...common} value={value} onChange={(event) => field.onChange(event.target.value)}>
          {!options.some((o) => o.value === value) && <option value={value}>{value}</option>}
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      ) : (
        <input
          {...common}
          type="text"
          autoComplete="off"
          spellCheck={false}
          inputMode={kind.kind === 'text' && kind.numeric ? 'numeric' : undefined}
          placeholder={variable.defaultValue}
          value={value}
          onChange={(event) => field.onChange(event.target.value)}
        />
      )}
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-400">
          {error}
        </p>
      )}
      <div id={`${id}-about`} className="space-y-0.5 text-xs text-zinc-400">
        {variable.description && <p>{variable.description}</p>}
        <p>
          <code className="text-zinc-300">{variable.envVariable}</code>
          {variable.rules && (
            <>
              {' · '}
              {t('server_new.rules')} <code className="text-zinc-300">{variable.rules}</code>
            </>
          )}
          {' · '}
          {t('server_new.default_value')}{' '}
          {variable.defaultValue === '' ? (
            t('server_new.empty_value')
          ) : (
            <code className="text-zinc-300">{variable.defaultValue}</code>
          )}
        </p>
      </div>
    </div>
  );
}
