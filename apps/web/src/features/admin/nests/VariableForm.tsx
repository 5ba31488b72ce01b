import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { AdminEggVariable, EggVariableBody } from '../../../api/application/nests.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { FormCheckbox, FormText, FormTextArea, applyFieldErrors } from '../components/index.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';

/**
 * The API's rules for an egg variable (docs/api.md "Variables"): a name, an environment variable
 * of letters, digits and `_`. The rules string itself is checked by the panel (its 422 shows under
 * the field), which knows every rule the importer accepts.
 */
export interface VariableFormValues {
  name: string;
  description: string;
  env_variable: string;
  default_value: string;
  user_viewable: boolean;
  user_editable: boolean;
  rules: string;
}

const ENV_VARIABLE = /^[A-Za-z0-9_]+$/u;

export function variableProblems(v: VariableFormValues): FormProblems<VariableFormValues> {
  const problems: FormProblems<VariableFormValues> = {};
  const name = v.name.trim();
  if (name === '') problems.name = 'Give the variable a name.';
  else if (name.length > 191) problems.name = 'At most 191 characters.';
  const env = v.env_variable.trim();
  if (env === '') problems.env_variable = 'Enter the environment variable, e.g. SERVER_JARFILE.';
  else if (env.length > 191) problems.env_variable = 'At most 191 characters.';
  else if (!ENV_VARIABLE.test(env)) problems.env_variable = 'Only letters, digits and underscores.';
  if (v.rules.trim().length > 2000) problems.rules = 'At most 2000 characters.';
  return problems;
}

const variableResolver = problemsResolver(variableProblems, (v) => ({
  ...v,
  name: v.name.trim(),
  env_variable: v.env_variable.trim(),
  rules: v.rules.trim(),
}));

const WIRE_FIELDS = new Set<string>([
  'name',
  'description',
  'env_variable',
  'default_value',
  'user_viewable',
  'user_editable',
  'rules',
]);

export function toVariableValues(variable: AdminEggVariable | null): VariableFormValues {
  return {
    name: variable?.name ?? '',
    description: variable?.description ?? '',
    env_variable: variable?.envVariable ?? '',
    default_value: variable?.defaultValue ?? '',
    user_viewable: variable?.userViewable ?? true,
    user_editable: variable?.userEditable ?? false,
    rules: variable?.rules ?? 'required|string',
  };
}

/** Add or edit one of an egg's variables; the 422 of each field is shown beside it. */
export function VariableForm({
  variable,
  submitLabel,
  onSubmit,
}: {
  variable: AdminEggVariable | null;
  submitLabel: string;
  onSubmit: (body: EggVariableBody) => Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<VariableFormValues>({
    resolver: variableResolver,
    defaultValues: toVariableValues(variable),
  });

  const submit = async (values: VariableFormValues) => {
    setFailure(null);
    try {
      await onSubmit({
        ...values,
        name: values.name.trim(),
        env_variable: values.env_variable.trim(),
        rules: values.rules.trim() === '' ? null : values.rules.trim(),
      });
    } catch (error) {
      const placed = applyFieldErrors(error, form.setError, (field) =>
        WIRE_FIELDS.has(field) ? (field as keyof VariableFormValues) : null,
      );
      if (!placed) setFailure(httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={form.handleSubmit(submit)}>
      {failure && <MessageBox type="error">{failure}</MessageBox>}
      <div className="grid gap-4 sm:grid-cols-2">
        <FormText form={form} name="name" label={t('nests.variables.name')} />
        <FormText
          form={form}
          name="env_variable"
          label={t('nests.variables.env')}
          hint={t('nests.variables.env_hint', { example: '{{NAME}}' })}
        />
      </div>
      <FormTextArea form={form} name="description" label={t('nests.variables.description')} rows={2} />
      <FormText form={form} name="default_value" label={t('nests.variables.default')} />
      <FormText
        form={form}
        name="rules"
        label={t('nests.variables.rules')}
        hint={t('nests.variables.rules_hint')}
      />
      <div className="grid gap-3 sm:grid-cols-2">
        <FormCheckbox form={form} name="user_viewable" label={t('nests.variables.viewable')} />
        <FormCheckbox form={form} name="user_editable" label={t('nests.variables.editable')} />
      </div>
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
