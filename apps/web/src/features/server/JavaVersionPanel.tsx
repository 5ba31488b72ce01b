import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useMutation, useQuery } from '@tanstack/react-query';
import { httpErrorToHuman } from '../../api/errors.ts';
import { getServerStartup, setServerDockerImage } from '../../api/startup.ts';
import { Button } from '../../components/Button.tsx';
import { MessageBox } from '../../components/MessageBox.tsx';
import { can } from '../../lib/shared.ts';
import { JAVA_MISMATCH, useConsoleMatch } from './consoleMatch.ts';
import { FeaturePanel } from './FeaturePanel.tsx';
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
  const patchServer = useServerStore((s) => s.patchServer);
  const mismatch = useConsoleMatch(socket, JAVA_MISMATCH);
  const [choice, setChoice] = useState(server.dockerImage);
  const [saved, setSaved] = useState(false);

  const startup = useQuery({
    queryKey: ['server', server.id, 'startup'],
    queryFn: () => getServerStartup(server.id),
    enabled: can(permissions, 'startup.read'),
    retry: false,
  });
  const images = Object.entries(startup.data?.dockerImages ?? {});
  const offered = images.some(([, image]) => image === server.dockerImage);
  const mayChange = can(permissions, 'startup.docker-image');
  const selectable = images.length > 1 && offered && mayChange;
  // Why the selector is shown but cannot be used (the administrator's choice wins over the egg's).
  const reason = !startup.isSuccess
    ? null
    : !offered
      ? t('java.manual')
      : images.length < 2
        ? t('java.single')
        : !mayChange
          ? t('java.no_permission')
          : null;

  const save = useMutation({
    mutationFn: (image: string) => setServerDockerImage(server.id, image),
    onSuccess: (_data, image) => {
      patchServer({ dockerImage: image });
      setSaved(true);
    },
  });

  const label = (image: string) => images.find(([, value]) => value === image)?.[0] ?? image;

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
      {startup.isSuccess && images.length > 0 && (
        <form
          className="mt-3 flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            setSaved(false);
            save.mutate(choice);
          }}
        >
          <label className="flex min-w-48 flex-1 flex-col gap-1 text-xs uppercase tracking-wide text-zinc-500">
            {t('java.select')}
            <select
              className="focus-ring rounded-md border border-zinc-700 bg-zinc-950 px-3 py-2 text-sm normal-case tracking-normal text-zinc-100 disabled:cursor-not-allowed disabled:opacity-60"
              disabled={!selectable}
              aria-describedby={reason ? 'java-reason' : undefined}
              value={choice}
              onChange={(event) => setChoice(event.target.value)}
            >
              {!offered && <option value={server.dockerImage}>{server.dockerImage}</option>}
              {images.map(([name, image]) => (
                <option key={image} value={image}>
                  {name}
                </option>
              ))}
            </select>
          </label>
          {selectable && (
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
