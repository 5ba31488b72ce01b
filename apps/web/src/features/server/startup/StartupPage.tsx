import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { useGlobalStore } from '../../../app/store.ts';
import { ScreenBlock } from '../../../components/ScreenBlock.tsx';
import { CenteredSpinner } from '../../../components/Spinner.tsx';
import { useTitle } from '../../../lib/useTitle.ts';
import { useServerStore } from '../store.ts';
import { DockerImageBox } from './DockerImageBox.tsx';
import { IMAGE_FLASH } from './flash.ts';
import { StartupCommand } from './StartupCommand.tsx';
import { StartupCommandChoice } from './StartupCommandChoice.tsx';
import { useServerStartup } from './useServerStartup.ts';
import { VariableBox } from './VariableBox.tsx';

/** /server/{id}/startup (spec 001 §2 "Startup"): the startup command, the image and the variables. */
export function StartupPage() {
  const { t } = useTranslation('startup');
  const serverName = useServerStore((s) => s.server!.name);
  const startup = useServerStartup();
  useTitle(`${serverName} | ${t('title')}`);
  useEffect(() => {
    useGlobalStore.getState().clearFlashes(IMAGE_FLASH);
  }, []);

  if (startup.isPending || (startup.isError && startup.isFetching)) return <CenteredSpinner />;
  if (startup.isError) {
    return (
      <ScreenBlock
        title={t('load_failed')}
        message={httpErrorToHuman(startup.error)}
        onRetry={() => void startup.refetch()}
      />
    );
  }
  const { data } = startup;

  return (
    <div className="space-y-6">
      <div className="grid grid-cols-1 gap-4 lg:grid-cols-3">
        <StartupCommand command={data.invocation} className="lg:col-span-2">
          <StartupCommandChoice data={data} />
        </StartupCommand>
        <DockerImageBox data={data} />
      </div>
      <section aria-labelledby="startup-variables" className="space-y-3">
        <h2 id="startup-variables" className="px-1 text-base font-semibold text-zinc-200">
          {t('variables_title')}
        </h2>
        {data.variables.length === 0 ? (
          <p className="px-1 text-sm text-zinc-400">{t('variables_empty')}</p>
        ) : (
          <div className="grid grid-cols-1 gap-4 md:grid-cols-2">
            {data.variables.map((variable) => (
              <VariableBox key={variable.envVariable} variable={variable} />
            ))}
          </div>
        )}
      </section>
    </div>
  );
}
