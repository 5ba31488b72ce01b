import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { updateEgg, type AdminEgg, type EggUpdateBody } from '../../../api/application/nests.ts';
import { problemsByField } from './apiErrors.ts';
import { eggQueryKey } from './EggViewLayout.tsx';

/** What a tab's own checks found: the problems by field, or the body to send. */
export type EggSaveCheck<F extends string> =
  { problems: Partial<Record<F, string>> } | { body: EggUpdateBody };

/**
 * The save of one egg tab (configuration, script): its own checks first, then PATCH; a 422 lands on
 * the field it names (`fields`), anything else in `other`. `saved` is said beside the button (not as
 * a page flash): it belongs to the tab and goes with it.
 */
export function useEggSave<F extends string>(egg: AdminEgg, fields: readonly F[]) {
  const client = useQueryClient();
  const [errors, setErrors] = useState<Partial<Record<F, string>>>({});
  const [other, setOther] = useState<string[]>([]);
  const [busy, setBusy] = useState(false);
  const [saved, setSaved] = useState(false);

  const save = async (checked: EggSaveCheck<F>, afterSave?: () => void) => {
    setOther([]);
    if ('problems' in checked) {
      setErrors(checked.problems);
      return;
    }
    setErrors({});
    setBusy(true);
    setSaved(false);
    try {
      const updated = await updateEgg(egg.nestId, egg.id, checked.body);
      client.setQueryData(eggQueryKey(egg.id), { ...updated, serverCount: egg.serverCount });
      afterSave?.();
      setSaved(true);
    } catch (error) {
      const sorted = problemsByField(error, fields);
      setErrors(sorted.byField as Partial<Record<F, string>>);
      setOther(sorted.other);
    } finally {
      setBusy(false);
    }
  };

  return { errors, other, busy, saved, save };
}
