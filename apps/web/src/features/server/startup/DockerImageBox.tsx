import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import type { StartupData } from '../../../api/startup.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { ContentBox } from '../../../components/ContentBox.tsx';
import { Spinner } from '../../../components/Spinner.tsx';
import { IMAGE_FLASH } from './flash.ts';
import { useDockerImageChoice } from './useDockerImageChoice.ts';

/**
 * The docker image selector (spec 001 §5): the egg's images by their display names; choosing one
 * sends it at once. Usable only with several images offered, the current one among them, and
 * startup.docker-image; otherwise shown disabled with the reason.
 */
export function DockerImageBox({ data, className = '' }: { data: StartupData; className?: string }) {
  const { t } = useTranslation('startup');
  const choice = useDockerImageChoice(data);
  const [changed, setChanged] = useState(false);
  const id = useId();
  // While a change is on its way the select shows it; a refusal falls back to the stored image.
  const shown = choice.change.isPending ? choice.change.variables : choice.current;

  const select = (image: string) => {
    useGlobalStore.getState().clearFlashes(IMAGE_FLASH);
    setChanged(false);
    choice.change.mutate(image, {
      onSuccess: () => setChanged(true),
      onError: (error) => flashError(IMAGE_FLASH, httpErrorToHuman(error)),
    });
  };

  return (
    <ContentBox title={t('image_title')} className={className}>
      <label
        htmlFor={`${id}-select`}
        className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase"
      >
        {t('image_select')}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <select
          id={`${id}-select`}
          value={shown}
          disabled={!choice.selectable || choice.change.isPending}
          aria-describedby={`${id}-note`}
          onChange={(event) => select(event.target.value)}
          className="focus-ring block w-full min-w-0 rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500 disabled:cursor-not-allowed disabled:border-dashed disabled:bg-zinc-900 disabled:text-zinc-400 disabled:hover:border-zinc-700"
        >
          {!choice.offered && <option value={choice.current}>{choice.current}</option>}
          {choice.images.map(([name, image]) => (
            <option key={image} value={image}>
              {name}
            </option>
          ))}
        </select>
        {choice.change.isPending && <Spinner size="small" label={t('saving')} />}
      </div>
      <p id={`${id}-note`} className="mt-2 text-xs text-zinc-400">
        {choice.lock ? t(`image_lock_${choice.lock}`) : t('image_text')}
      </p>
      {changed && (
        <p role="status" className="mt-2 text-sm text-emerald-300">
          {t('image_changed')}
        </p>
      )}
      <FlashMessageRender byKey={IMAGE_FLASH} className="mt-3" />
    </ContentBox>
  );
}
