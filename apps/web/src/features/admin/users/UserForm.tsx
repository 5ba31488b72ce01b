import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { UserInput } from '../../../api/application/users.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { ADMIN_FLASH, FormCheckbox, FormSelect, FormText, applyFieldErrors } from '../components/index.ts';
import {
  USER_LANGUAGES,
  toUserInput,
  userFieldForWire,
  userResolver,
  type UserFormValues,
} from './userForm.ts';

/**
 * The user form, for creating (`mode="create"`) and editing. The password is optional both ways:
 * on create, without one the user gets an email with a link to set it; on edit, blank keeps it.
 * `onSave` calls the API; a 422 lands beside its field, any other refusal is shown above the page.
 */
export function UserForm({
  mode,
  initial,
  onSave,
}: {
  mode: 'create' | 'edit';
  initial: UserFormValues;
  onSave: (input: UserInput) => Promise<unknown>;
}) {
  const { t } = useTranslation('admin');
  const form = useForm<UserFormValues>({ resolver: userResolver, values: initial });
  const { isSubmitting } = form.formState;
  const languages = USER_LANGUAGES.some((l) => l.value === initial.language)
    ? USER_LANGUAGES
    : [...USER_LANGUAGES, { value: initial.language, label: initial.language }];

  const submit = async (values: UserFormValues) => {
    useGlobalStore.getState().clearFlashes(ADMIN_FLASH);
    try {
      await onSave(toUserInput(values));
      form.reset({ ...values, password: '' });
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, userFieldForWire))
        flashError(ADMIN_FLASH, httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-4">
      <div className="grid gap-4 md:grid-cols-2">
        <FormText form={form} name="email" type="email" label={t('users.email')} autoComplete="off" />
        <FormText form={form} name="username" label={t('users.username')} autoComplete="off" />
        <FormText form={form} name="firstName" label={t('users.first_name')} autoComplete="off" />
        <FormText form={form} name="lastName" label={t('users.last_name')} autoComplete="off" />
        <FormText
          form={form}
          name="password"
          type="password"
          autoComplete="new-password"
          label={t('users.password')}
          hint={mode === 'create' ? t('users.password_hint_create') : t('users.password_hint_edit')}
        />
        <FormSelect
          form={form}
          name="language"
          label={t('users.language')}
          options={languages.map((l) => ({ value: l.value, label: l.label }))}
        />
      </div>
      <FormCheckbox
        form={form}
        name="rootAdmin"
        label={t('users.root_admin')}
        hint={t('users.root_admin_hint')}
      />
      <div className="flex justify-end">
        <Button type="submit" isLoading={isSubmitting}>
          {mode === 'create' ? t('users.create') : t('users.save')}
        </Button>
      </div>
    </form>
  );
}
