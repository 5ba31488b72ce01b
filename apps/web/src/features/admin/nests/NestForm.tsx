import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { NestBody } from '../../../api/application/nests.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { FormText, FormTextArea, applyFieldErrors } from '../components/index.ts';
import { problemsResolver, type FormProblems } from '../components/problemsResolver.ts';
import { useState } from 'react';

/** The API's rules for a nest (docs/api.md "Nests"): a name of 1–191 characters. */
export interface NestFormValues {
  name: string;
  description: string;
}

export function nestProblems(v: NestFormValues): FormProblems<NestFormValues> {
  const name = v.name.trim();
  if (name === '') return { name: 'Give the nest a name.' };
  if (name.length > 191) return { name: 'At most 191 characters.' };
  return {};
}

const nestResolver = problemsResolver(nestProblems, (v) => ({ ...v, name: v.name.trim() }));

/** Name and description of a nest, for creating one or renaming it. */
export function NestForm({
  initial = { name: '', description: '' },
  submitLabel,
  onSubmit,
}: {
  initial?: NestFormValues;
  submitLabel: string;
  onSubmit: (body: NestBody) => Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<NestFormValues>({ resolver: nestResolver, values: initial });

  const submit = async (values: NestFormValues) => {
    setFailure(null);
    try {
      await onSubmit({ name: values.name.trim(), description: values.description.trim() || null });
    } catch (error) {
      const placed = applyFieldErrors(error, form.setError, (field) =>
        field === 'name' || field === 'description' ? field : null,
      );
      if (!placed) setFailure(httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate className="space-y-4" onSubmit={form.handleSubmit(submit)}>
      {failure && <MessageBox type="error">{failure}</MessageBox>}
      <FormText form={form} name="name" label={t('nests.name')} />
      <FormTextArea form={form} name="description" label={t('nests.description_label')} rows={3} />
      <div className="flex justify-end">
        <Button type="submit" isLoading={form.formState.isSubmitting}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
