import { useForm } from 'react-hook-form';
import { zodResolver } from '@hookform/resolvers/zod';
import { useTranslation } from 'react-i18next';
import { useQueryClient } from '@tanstack/react-query';
import { renameServerSchema, type RenameServerValues } from '@talon/shared/validation/server';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { renameServer } from '../../../api/serverSettings.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Button } from '../../../components/Button.tsx';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { SpinnerOverlay } from '../../../components/Spinner.tsx';
import { useServerStore } from '../store.ts';
import { SETTINGS_FLASH } from './flash.ts';

/** Change Server Name (spec 001 §2): name (required) and description; the title follows at once. */
export function RenameServerForm() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const patchServer = useServerStore((s) => s.patchServer);
  const queryClient = useQueryClient();
  const { register, handleSubmit, formState, reset } = useForm<RenameServerValues>({
    resolver: zodResolver(renameServerSchema),
    mode: 'onTouched',
    defaultValues: { name: server.name, description: server.description },
  });
  const { errors, touchedFields, isSubmitting, isSubmitted, isDirty } = formState;

  const onSubmit = async (values: RenameServerValues) => {
    const store = useGlobalStore.getState();
    store.clearFlashes(SETTINGS_FLASH);
    try {
      await renameServer(server.id, values.name, values.description);
    } catch (error) {
      flashError(SETTINGS_FLASH, httpErrorToHuman(error));
      return;
    }
    patchServer({
      name: values.name,
      description: values.description,
      descriptionOrNull: values.description || null,
    });
    reset(values);
    // The dashboard and search show the name too.
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    store.addFlash({
      key: SETTINGS_FLASH,
      type: 'success',
      title: t('common:flash.success'),
      message: t('settings.renamed'),
    });
  };

  return (
    <form noValidate onSubmit={handleSubmit(onSubmit)} className="relative space-y-4">
      <SpinnerOverlay visible={isSubmitting} />
      <TextField
        label={t('settings.rename_name')}
        autoComplete="off"
        error={errors.name?.message}
        touched={touchedFields.name || isSubmitted}
        {...register('name')}
      />
      <TextAreaField label={t('settings.rename_description')} rows={3} {...register('description')} />
      <div className="flex justify-end">
        <Button type="submit" disabled={isSubmitting || !isDirty}>
          {t('settings.rename_submit')}
        </Button>
      </div>
    </form>
  );
}
