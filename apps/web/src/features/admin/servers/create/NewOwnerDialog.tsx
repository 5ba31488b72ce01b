import { useQueryClient } from '@tanstack/react-query';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createUser, type AdminUser } from '../../../../api/application/users.ts';
import { httpErrorToHuman } from '../../../../api/errors.ts';
import { Button } from '../../../../components/Button.tsx';
import { MessageBox } from '../../../../components/MessageBox.tsx';
import { Modal } from '../../../../components/Modal.tsx';
import { FormText, applyFieldErrors } from '../../components/index.ts';
import {
  EMPTY_USER,
  toUserInput,
  userFieldForWire,
  userResolver,
  type UserFormValues,
} from '../../users/userForm.ts';

/**
 * "New user" beside the create-server form's owner picker: makes the owner's account through the
 * application API (POST /users, no password, so they get the usual email to set theirs) and hands
 * it back to be chosen, so a new operator can create the server first and its owner on the way.
 */
export function NewOwnerDialog({
  visible,
  onDismissed,
  onCreated,
}: {
  visible: boolean;
  onDismissed: () => void;
  onCreated: (user: AdminUser) => void;
}) {
  const { t } = useTranslation('admin');
  const client = useQueryClient();
  const form = useForm<UserFormValues>({ resolver: userResolver, defaultValues: EMPTY_USER });
  const { isSubmitting, errors } = form.formState;

  const submit = async (values: UserFormValues) => {
    try {
      const user = await createUser({ ...toUserInput(values), password: '', rootAdmin: false });
      client.setQueryData(['admin', 'users', 'item', user.id], user);
      await client.invalidateQueries({ queryKey: ['admin', 'users'], refetchType: 'none' });
      form.reset(EMPTY_USER);
      onCreated(user);
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, userFieldForWire)) {
        form.setError('root', { message: httpErrorToHuman(error) });
      }
    }
  };

  return (
    <Modal
      visible={visible}
      onDismissed={onDismissed}
      title={t('server_new.new_owner_title')}
      showSpinnerOverlay={isSubmitting}
    >
      <form
        noValidate
        // The dialog is portalled out of the create-server form's DOM, but React still bubbles its
        // submit to that form's handler: stop it here.
        onSubmit={(event) => {
          event.stopPropagation();
          void form.handleSubmit(submit)(event);
        }}
        className="space-y-4"
      >
        <p className="text-sm text-zinc-400">{t('server_new.new_owner_hint')}</p>
        {errors.root?.message && <MessageBox type="error">{errors.root.message}</MessageBox>}
        <div className="grid gap-4 sm:grid-cols-2">
          <FormText form={form} name="email" type="email" label={t('users.email')} autoComplete="off" />
          <FormText form={form} name="username" label={t('users.username')} autoComplete="off" />
          <FormText form={form} name="firstName" label={t('users.first_name')} autoComplete="off" />
          <FormText form={form} name="lastName" label={t('users.last_name')} autoComplete="off" />
        </div>
        <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
          <Button type="button" variant="secondary" onClick={onDismissed}>
            {t('server_new.new_owner_cancel')}
          </Button>
          <Button type="submit" isLoading={isSubmitting}>
            {t('server_new.new_owner_submit')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
