import { useId, useMemo, useState } from 'react';
import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { createSubuser, updateSubuser, type Subuser } from '../../../api/subusers.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { USER_EDIT_FLASH } from './flash.ts';
import { PermissionGroup } from './PermissionGroup.tsx';
import { HIDDEN_PERMISSION, catalogueGroups, maySelect } from './rules.ts';
import { fromFilePaths, subuserFieldsSchema, toFilePaths, type SubuserFormFields } from './subuserForm.ts';

/**
 * The create/edit user modal (spec 001 §2, §5). `subuser` null creates. Errors from the panel are
 * shown inside it under `user:edit`.
 */
export function SubuserModal({
  visible,
  subuser,
  onSaved,
  onDismissed,
}: {
  visible: boolean;
  subuser: Subuser | null;
  onSaved: (subuser: Subuser, created: boolean) => void;
  onDismissed: () => void;
}) {
  const { t } = useTranslation('users');
  const dismiss = () => {
    useGlobalStore.getState().clearFlashes(USER_EDIT_FLASH);
    onDismissed();
  };
  return (
    <Modal
      visible={visible}
      size="wide"
      title={subuser ? t('edit_title', { email: subuser.email }) : t('create_title')}
      onDismissed={dismiss}
    >
      <SubuserForm subuser={subuser} onSaved={onSaved} onCancel={dismiss} />
    </Modal>
  );
}

function SubuserForm({
  subuser,
  onSaved,
  onCancel,
}: {
  subuser: Subuser | null;
  onSaved: (subuser: Subuser, created: boolean) => void;
  onCancel: () => void;
}) {
  const { t } = useTranslation('users');
  const formId = useId();
  const serverId = useServerStore((s) => s.server!.id);
  const held = useServerStore((s) => s.permissions);
  const rootAdmin = useGlobalStore((s) => s.user?.rootAdmin ?? false);
  const catalogue = useGlobalStore((s) => s.permissions);
  const groups = useMemo(() => catalogueGroups(catalogue), [catalogue]);
  // Editing needs user.update, creating user.create (spec 001 §5); without it the modal only shows.
  const editable = can(held, subuser ? 'user.update' : 'user.create');
  // Root admins and holders of `*` may give anything; the others only what they hold.
  const restricted = !rootAdmin && held[0] !== '*';
  const selectable = (permission: string) => maySelect(permission, held, rootAdmin);

  const { register, handleSubmit, formState } = useForm<SubuserFormFields>({
    resolver: zodResolver(subuserFieldsSchema),
    mode: 'onTouched',
    defaultValues: {
      email: subuser?.email ?? '',
      folders: fromFilePaths(subuser?.filePaths ?? null),
    },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted } = formState;
  const [selected, setSelected] = useState<ReadonlySet<string>>(
    () => new Set((subuser?.permissions ?? []).filter((p) => p !== HIDDEN_PERMISSION)),
  );

  const toggle = (changed: string[], on: boolean) => {
    const next = new Set(selected);
    for (const permission of changed) {
      if (on) next.add(permission);
      else next.delete(permission);
    }
    setSelected(next);
  };

  const onSubmit = async (values: SubuserFormFields) => {
    useGlobalStore.getState().clearFlashes(USER_EDIT_FLASH);
    // Sent in catalogue order, whatever order they were ticked in.
    const order = groups.flatMap((g) => g.keys.map((k) => k.permission));
    const input = {
      email: values.email,
      permissions: order.filter((p) => selected.has(p)),
      filePaths: toFilePaths(values.folders),
    };
    try {
      const saved = subuser
        ? await updateSubuser(serverId, subuser.uuid, input)
        : await createSubuser(serverId, input);
      onSaved(saved, subuser === null);
    } catch (error) {
      flashError(USER_EDIT_FLASH, httpErrorToHuman(error));
    }
  };

  if (groups.length === 0) return <CenteredSpinner />;
  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="space-y-4">
      <FlashMessageRender byKey={USER_EDIT_FLASH} />
      <TextField
        label={t('email')}
        type="email"
        autoComplete="off"
        // Email is editable only on create (spec 001 §5).
        readOnly={subuser !== null || !editable}
        hint={subuser ? undefined : t('email_hint')}
        error={errors.email?.message}
        touched={touchedFields.email || isSubmitted}
        {...register('email')}
      />
      {restricted && editable && (
        <p
          className="rounded-md border border-sky-500/60 bg-sky-950/60 px-3 py-2 text-sm text-sky-100"
          data-testid="held-hint"
        >
          {t('held_only_hint')}
        </p>
      )}
      {!editable && (
        <p className="text-sm text-zinc-400" data-testid="read-only-hint">
          {t(subuser ? 'read_only_update' : 'read_only_create')}
        </p>
      )}
      {/* The catalogue is taller than most screens: it scrolls inside the modal, which keeps its
          title and its buttons in sight. */}
      <p id={`${formId}-permissions`} className="text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {t('permissions')}
      </p>
      <div
        className="focus-ring max-h-[55vh] space-y-3 overflow-y-auto rounded-lg pr-1"
        role="region"
        aria-labelledby={`${formId}-permissions`}
        tabIndex={0}
      >
        {groups.map((group) => (
          <PermissionGroup
            key={group.name}
            group={group}
            selected={selected}
            selectable={selectable}
            readOnly={!editable}
            onChange={toggle}
          >
            {group.name === 'file' && (
              <div className="mt-4">
                <TextAreaField
                  label={t('folders')}
                  hint={t('folders_hint')}
                  rows={3}
                  spellCheck={false}
                  placeholder="/plugins"
                  readOnly={!editable}
                  error={errors.folders?.message}
                  touched={touchedFields.folders || isSubmitted}
                  {...register('folders')}
                />
              </div>
            )}
          </PermissionGroup>
        ))}
      </div>
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onCancel} disabled={isSubmitting}>
          {editable ? t('cancel') : t('close')}
        </Button>
        {editable && (
          <Button type="submit" isLoading={isSubmitting}>
            {subuser ? t('save') : t('invite')}
          </Button>
        )}
      </div>
    </form>
  );
}
