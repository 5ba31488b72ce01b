import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button.tsx';
import { useServerStore } from './store.ts';

/**
 * Egg feature panels (spec 001 §2). The panel has no file or startup endpoints yet, so the EULA
 * cannot be written and the image cannot be changed from here; both say so instead of failing.
 */
export function FeaturePanels() {
  const { t } = useTranslation('server');
  const features = useServerStore((s) => s.server?.eggFeatures ?? []);
  const image = useServerStore((s) => s.server?.dockerImage ?? '');
  return (
    <>
      {features.includes('eula') && (
        <section
          className="rounded-lg border border-amber-700/60 bg-amber-950/30 p-4"
          data-testid="eula-panel"
        >
          <h3 className="font-medium text-amber-200">{t('eula.title')}</h3>
          <p className="mt-1 text-sm text-amber-100/80">{t('eula.text')}</p>
          <span title={t('eula.unavailable')} className="mt-3 inline-block">
            <Button disabled aria-describedby="eula-unavailable">
              {t('eula.accept')}
            </Button>
          </span>
          <p id="eula-unavailable" className="mt-2 text-xs text-zinc-500">
            {t('eula.unavailable')}
          </p>
        </section>
      )}
      {features.includes('java_version') && (
        <section className="rounded-lg border border-zinc-800 bg-zinc-900/80 p-4" data-testid="java-panel">
          <h3 className="font-medium text-zinc-200">{t('java.title')}</h3>
          <p className="mt-1 text-sm text-zinc-400">{t('java.text')}</p>
          <p className="mt-2 text-sm text-zinc-300">
            {t('java.current')}: <code className="font-mono">{image}</code>
          </p>
        </section>
      )}
    </>
  );
}
