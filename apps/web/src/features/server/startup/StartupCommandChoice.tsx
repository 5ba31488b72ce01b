import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { setServerStartupCommand, type StartupData } from '../../../api/startup.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { Spinner } from '../../../components/Spinner.tsx';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { COMMAND_FLASH } from './flash.ts';
import { startupQueryKey } from './useServerStartup.ts';

/**
 * The egg's named start-up commands (PLCN_v3 eggs carry several; issue 17), shown only when there is
 * a choice. Choosing one sends it at once; without startup.update, or when an administrator wrote
 * the command by hand, it is shown disabled with the reason.
 */
export function StartupCommandChoice({ data }: { data: StartupData }) {
  const { t } = useTranslation('startup');
  const id = useId();
  const serverId = useServerStore((s) => s.server!.id);
  const mayUpdate = useServerStore((s) => can(s.permissions, 'startup.update'));
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (name: string) => setServerStartupCommand(serverId, name),
    onSuccess: (answer) =>
      queryClient.setQueryData<StartupData>(startupQueryKey(serverId), (old) => old && { ...old, ...answer }),
    onError: (error) => flashError(COMMAND_FLASH, httpErrorToHuman(error)),
  });
  if (data.startupCommands.length < 2) return null;
  const manual = data.startupCommandName === null;
  const note = manual
    ? t('command_lock_manual')
    : !mayUpdate
      ? t('command_lock_no_permission')
      : t('command_choice_text');
  const shown = change.isPending ? change.variables : (data.startupCommandName ?? '');

  return (
    <div className="mt-4">
      <label
        htmlFor={`${id}-select`}
        className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase"
      >
        {t('command_select')}
      </label>
      <div className="mt-1 flex items-center gap-2">
        <select
          id={`${id}-select`}
          value={shown}
          disabled={manual || !mayUpdate || change.isPending}
          aria-describedby={`${id}-note`}
          onChange={(event) => {
            useGlobalStore.getState().clearFlashes(COMMAND_FLASH);
            change.mutate(event.target.value);
          }}
          className="focus-ring block w-full min-w-0 rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500 disabled:cursor-not-allowed disabled:border-dashed disabled:bg-zinc-900 disabled:text-zinc-400 disabled:hover:border-zinc-700"
        >
          {manual && <option value="">{t('command_custom')}</option>}
          {data.startupCommands.map((c) => (
            <option key={c.name} value={c.name}>
              {c.name}
            </option>
          ))}
        </select>
        {change.isPending && <Spinner size="small" label={t('saving')} />}
      </div>
      <p id={`${id}-note`} className="mt-2 text-xs text-zinc-400">
        {note}
      </p>
      <FlashMessageRender byKey={COMMAND_FLASH} className="mt-3" />
    </div>
  );
}
