import { useTranslation } from 'react-i18next';

export const COPYRIGHT_FROM = 2015;

/** Copyright line with the range 2015 to the current year (spec §2). */
export function Footer({ now = new Date() }: { now?: Date }) {
  const { t } = useTranslation('common');
  return (
    <footer className="mx-auto w-full max-w-[1200px] px-4 py-6 text-center text-xs text-zinc-500">
      <span>&copy; {t('footer.copyright', { from: COPYRIGHT_FROM, to: now.getFullYear() })}</span>
      <span className="mx-2" aria-hidden="true">
        ·
      </span>
      <span>{t('footer.powered_by')}</span>
    </footer>
  );
}
