import { useTranslation } from 'react-i18next';
import type { Subuser } from '../../../api/subusers.ts';
import { Button } from '../../../components/Button.tsx';
import { Avatar } from './Avatar.tsx';
import { countedPermissions } from './rules.ts';

/**
 * One subuser (spec 001 §3): picture, name and email, 2FA state and permission count. Nobody gets
 * edit or delete on their own row (spec 001 §6); others' rows open the modal (read-only without
 * user.update) and offer delete with user.delete.
 */
export function SubuserRow({
  subuser,
  isSelf,
  mayUpdate,
  mayDelete,
  onEdit,
  onDelete,
}: {
  subuser: Subuser;
  isSelf: boolean;
  mayUpdate: boolean;
  mayDelete: boolean;
  onEdit: (subuser: Subuser) => void;
  onDelete: (subuser: Subuser) => void;
}) {
  const { t } = useTranslation('users');
  const count = countedPermissions(subuser.permissions);
  return (
    <li
      data-testid={`subuser-${subuser.uuid}`}
      className="flex flex-wrap items-center gap-3 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm sm:flex-nowrap sm:gap-4"
    >
      <Avatar image={subuser.image} username={subuser.username} email={subuser.email} />
      {/* On a phone the name takes the first line whole; the figures and buttons wrap below. */}
      <div className="min-w-0 flex-1 basis-52 sm:basis-auto">
        <p className="truncate text-sm font-medium text-zinc-100">{subuser.email}</p>
        <p className="truncate text-xs text-zinc-400">
          {subuser.username}
          {isSelf && ` · ${t('you')}`}
        </p>
      </div>
      <div className="flex items-center gap-3 sm:gap-6">
        <span
          data-testid="subuser-2fa"
          className={`rounded px-2 py-1 text-xs font-semibold ${subuser.twoFactorEnabled ? 'bg-emerald-950 text-emerald-300' : 'bg-zinc-800 text-zinc-400'}`}
        >
          {subuser.twoFactorEnabled ? t('two_factor_on') : t('two_factor_off')}
        </span>
        <span className="text-center" data-testid="subuser-permission-count">
          <span className="block text-sm font-semibold text-zinc-100">{count}</span>
          <span className="block text-xs text-zinc-400">{t('permission_count', { count })}</span>
        </span>
      </div>
      {!isSelf && (
        <div className="ml-auto flex gap-2">
          <Button
            variant="secondary"
            onClick={() => onEdit(subuser)}
            aria-label={t(mayUpdate ? 'edit_label' : 'view_label', { email: subuser.email })}
          >
            {t(mayUpdate ? 'edit' : 'view')}
          </Button>
          {mayDelete && (
            <Button
              variant="danger"
              onClick={() => onDelete(subuser)}
              aria-label={t('delete_label', { email: subuser.email })}
            >
              {t('delete')}
            </Button>
          )}
        </div>
      )}
    </li>
  );
}
