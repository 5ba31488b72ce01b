import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../api/errors.ts';
import { Button } from '../../components/Button.tsx';
import { MessageBox } from '../../components/MessageBox.tsx';
import { can } from '../../lib/shared.ts';
import { JAVA_MISMATCH, useConsoleMatch } from './consoleMatch.ts';
import { FeaturePanel } from './FeaturePanel.tsx';
import { useDockerImageChoice } from './startup/useDockerImageChoice.ts';
import { useServerStartup } from './startup/useServerStartup.ts';
import { useServerStore } from './store.ts';

/**
 * The `java_version` egg feature: choose the image (and so the Java version) among the egg's
 * images. Like the startup page's selector, it is usable only when more than one image is offered
 * and the current one is among them (an administrator may have set another by hand).
 */
export function JavaVersionPanel() {
  const { t } = useTranslation('server');
  const server = useServerStore((s) => s.server)!;
  const permissions = useServerStore((s) => s.permissions);
  const socket = useServerStore((s) => s.socket);
  const mismatch = useConsoleMatch(socket, JAVA_MISMATCH);
  const [choice, setChoice] = useState(server.dockerImage);
  const [saved, setSaved] = useState(false);

  const startup = useServerStartup(can(permissions, 'startup.read'));
  // The selector's rules and the change are the startup page's (one definition for both).
  const picker = useDockerImageChoice(startup.data);
  const { change: save, label } = picker;
  const reason = picker.lock ? t(`java.${picker.lock}`) : null;

  return (
    <FeaturePanel id="java" title={t('java.title')} attention={mismatch} reveal={mismatch}>
      {mismatch && (
        <p className="mt-1 text-sm font-medium text-amber-100" role="status">
          {t('java.prompt')}
        </p>
      )}
      <p className="mt-1 text-sm text-zinc-400">{t('java.text')}</p>
      <p className="mt-2 text-sm text-zinc-300">
        {t('java.current')}: <span data-testid="java-current">{label(server.dockerImage)}</span>
      </p>
      {startup.isError && (
        <div className="mt-3">
          <MessageBox type="error">{httpErrorToHuman(startup.error)}</MessageBox>
        </div>
      )}
      {startup.isSuccess && picker.images.length > 0 && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(false);
            save.mutate(choice, { onSuccess: () => setSaved(true) });
          }}
        >
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-xs uppercase tracking-wide text-zinc-500">
            {t('java.select')}
            <select
              className="focus-ring rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 text-sm normal-case tracking-normal text-zinc-100 disabled:cursor-not-allowed disabled:opacity-60"
              disabled={!picker.selectable}
              aria-describedby={reason ? 'java-reason' : undefined}
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
            >
              {!picker.offered && <option value={server.dockerImage}>{server.dockerImage}</option>}
              {picker.images.map(([name, image]) => (
                <option key={image} value={image}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          {picker.selectable && (
            <Button type="submit" isLoading={save.isPending} disabled={choice === server.dockerImage}>
              {t('java.save')}
            </Button>
          )}
        </form>
      )}
      {reason && (
        <p id="java-reason" className="mt-2 text-xs text-zinc-400">
          {reason}
        </p>
      )}
      {save.isError && (
        <div className="mt-3">
          <MessageBox type="error">{httpErrorToHuman(save.error)}</MessageBox>
        </div>
      )}
      {saved && (
        <p className="mt-2 text-sm text-emerald-300" role="status">
          {t('java.saved')}
        </p>
      )}
    </FeaturePanel>
  );
}
