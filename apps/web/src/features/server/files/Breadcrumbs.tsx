import { Link, type To } from 'react-router';
import { useTranslation } from 'react-i18next';
import { breadcrumbs, CONTAINER_ROOT, hashFor } from './paths.ts';

/**
 * `/home/container/plugins/config`: each part opens its folder; the last is where we are. Shown
 * outside the file manager (the editor), `filesPath` is the manager's pathname the links lead to
 * and `current` the file after the folders: then every folder is a link.
 */
export function Breadcrumbs({
  directory,
  filesPath,
  current,
}: {
  directory: string;
  filesPath?: string;
  current?: string;
}) {
  const { t } = useTranslation('files');
  const parts = breadcrumbs(directory);
  const linkLast = current !== undefined;
  const to = (path: string): To =>
    filesPath === undefined ? { hash: hashFor(path) } : { pathname: filesPath, hash: hashFor(path) };
  const link = 'focus-ring rounded text-zinc-300 hover:text-white';
  return (
    <nav aria-label={t('breadcrumb')} className="min-w-0 font-mono text-sm break-all text-zinc-500">
      <span>/</span>
      {parts.length === 0 && !linkLast ? (
        <span className="text-zinc-100" aria-current="page">
          {CONTAINER_ROOT.slice(1)}
        </span>
      ) : (
        <Link to={to('/')} className={link}>
          {CONTAINER_ROOT.slice(1)}
        </Link>
      )}
      {parts.map((part, i) => (
        <span key={part.path}>
          <span>/</span>
          {i === parts.length - 1 && !linkLast ? (
            <span className="text-zinc-100" aria-current="page">
              {part.name}
            </span>
          ) : (
            <Link to={to(part.path)} className={link}>
              {part.name}
            </Link>
          )}
        </span>
      ))}
      {current && (
        <span>
          <span>/</span>
          <span className="text-zinc-100" aria-current="page">
            {current}
          </span>
        </span>
      )}
    </nav>
  );
}
