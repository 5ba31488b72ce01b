import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import { createLocation, updateLocation, type AdminLocation } from '../../../api/application/locations.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { Button } from '../../../components/Button.tsx';
import { MessageBox } from '../../../components/MessageBox.tsx';
import { Modal } from '../../../components/Modal.tsx';
import { FormText, applyFieldErrors } from '../components/index.ts';
import {
  EMPTY_LOCATION,
  locationFieldForWire,
  locationResolver,
  toLocationFormValues,
  toLocationInput,
  type LocationFormValues,
} from './locationForm.ts';

/**
 * Create (no `location`) or edit a location in a dialog. A 422 lands beside its field; any other
 * refusal is said in the dialog, which stays open. `onSaved` gets the saved location.
 */
export function LocationFormModal({
  visible,
  location,
  onClose,
  onSaved,
}: {
  visible: boolean;
  location: AdminLocation | null;
  onClose: () => void;
  onSaved: (saved: AdminLocation, created: boolean) => void;
}) {
  const { t } = useTranslation('admin');
  return (
    <Modal
      visible={visible}
      onDismissed={onClose}
      title={location ? t('locations.edit_title', { short: location.short }) : t('locations.create_title')}
    >
      {/* Mounted only while open, so each opening starts from the location's current values. */}
      <LocationForm location={location} onClose={onClose} onSaved={onSaved} />
    </Modal>
  );
}

function LocationForm({
  location,
  onClose,
  onSaved,
}: {
  location: AdminLocation | null;
  onClose: () => void;
  onSaved: (saved: AdminLocation, created: boolean) => void;
}) {
  const { t } = useTranslation('admin');
  const [failure, setFailure] = useState<string | null>(null);
  const form = useForm<LocationFormValues>({
    resolver: locationResolver,
    defaultValues: location ? toLocationFormValues(location) : EMPTY_LOCATION,
  });
  const { isSubmitting } = form.formState;

  const submit = async (values: LocationFormValues) => {
    setFailure(null);
    try {
      const input = toLocationInput(values);
      const saved = location ? await updateLocation(location.id, input) : await createLocation(input);
      onSaved(saved, location === null);
    } catch (error) {
      if (!applyFieldErrors(error, form.setError, locationFieldForWire)) setFailure(httpErrorToHuman(error));
    }
  };

  return (
    <form noValidate onSubmit={form.handleSubmit(submit)} className="space-y-4">
      {failure && <MessageBox type="error">{failure}</MessageBox>}
      <FormText
        form={form}
        name="short"
        label={t('locations.short_label')}
        hint={t('locations.short_hint')}
        autoComplete="off"
      />
      <FormText
        form={form}
        name="long"
        label={t('locations.long_label')}
        hint={t('locations.long_hint')}
        autoComplete="off"
      />
      <div className="flex flex-col-reverse gap-2 sm:flex-row sm:justify-end">
        <Button type="button" variant="secondary" onClick={onClose} disabled={isSubmitting}>
          {t('common.cancel')}
        </Button>
        <Button type="submit" isLoading={isSubmitting}>
          {location ? t('locations.save') : t('locations.create')}
        </Button>
      </div>
    </form>
  );
}
