import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { breadcrumbs, CONTAINER_ROOT, hashFor } from './paths.ts';

/** `/home/container/plugins/config`: each part opens its folder; the last is where we are. */
export function Breadcrumbs({ directory }: { directory: string }) {
  const { t } = useTranslation('files');
  const parts = breadcrumbs(directory);
  const link = 'focus-ring rounded text-zinc-300 hover:text-white';
  return (
    <nav aria-label={t('breadcrumb')} className="min-w-0 font-mono text-sm break-all text-zinc-500">
      <span>/</span>
      {parts.length === 0 ? (
        <span className="text-zinc-100" aria-current="page">
          {CONTAINER_ROOT.slice(1)}
        </span>
      ) : (
        <Link to={{ hash: hashFor('/') }} className={link}>
          {CONTAINER_ROOT.slice(1)}
        </Link>
      )}
      {parts.map((part, i) => (
        <span key={part.path}>
          <span>/</span>
          {i === parts.length - 1 ? (
            <span className="text-zinc-100" aria-current="page">
              {part.name}
            </span>
          ) : (
            <Link to={{ hash: hashFor(part.path) }} className={link}>
              {part.name}
            </Link>
          )}
        </span>
      ))}
    </nav>
  );
}
