import { useTranslation } from 'react-i18next';
import { KEY_RESOURCES, type KeyPermissions, type KeyRight } from '../../../api/application/apiKeys.ts';

const RIGHTS: KeyRight[] = [0, 1, 3];

/**
 * One row per resource with three radio buttons (None / Read / Read & write). Each row is a radio
 * group, so Tab moves between resources and the arrow keys between the three rights.
 */
export function PermissionsPicker({
  value,
  onChange,
  disabled = false,
}: {
  value: KeyPermissions;
  onChange: (next: KeyPermissions) => void;
  disabled?: boolean;
}) {
  const { t } = useTranslation('admin');
  const setAll = (right: KeyRight) =>
    onChange(Object.fromEntries(KEY_RESOURCES.map((r) => [r, right])) as KeyPermissions);

  return (
    <fieldset className="space-y-2" disabled={disabled}>
      <legend className="mb-2 text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {t('api.permissions')}
      </legend>
      <div className="flex flex-wrap gap-2 text-xs">
        <span className="text-zinc-400">{t('api.set_all')}</span>
        {RIGHTS.map((right) => (
          <button
            key={right}
            type="button"
            onClick={() => setAll(right)}
            className="focus-ring rounded px-1 text-sky-300 hover:underline"
          >
            {t(`api.right_${right}`)}
          </button>
        ))}
      </div>
      <ul className="divide-y divide-zinc-800 rounded-md border border-zinc-800">
        {KEY_RESOURCES.map((resource) => (
          <li
            key={resource}
            className="flex flex-col gap-1 px-3 py-2 sm:flex-row sm:items-center sm:justify-between"
          >
            <span id={`right-${resource}`} className="text-sm text-zinc-200">
              {t(`api.resource.${resource}`)}
            </span>
            <span role="radiogroup" aria-labelledby={`right-${resource}`} className="flex gap-1">
              {RIGHTS.map((right) => {
                const checked = value[resource] === right;
                return (
                  <label
                    key={right}
                    className={`cursor-pointer rounded-md border px-2 py-1 text-xs has-[:focus-visible]:ring-2 has-[:focus-visible]:ring-sky-400 ${
                      checked
                        ? right === 0
                          ? 'border-zinc-500 bg-zinc-700 text-white'
                          : 'border-sky-500 bg-sky-600/30 text-white'
                        : 'border-zinc-700 text-zinc-400 hover:text-zinc-200'
                    }`}
                  >
                    <input
                      type="radio"
                      className="sr-only"
                      name={`right-${resource}`}
                      value={right}
                      checked={checked}
                      onChange={() => onChange({ ...value, [resource]: right })}
                    />
                    {t(`api.right_${right}`)}
                  </label>
                );
              })}
            </span>
          </li>
        ))}
      </ul>
    </fieldset>
  );
}

/** "Servers: read & write · Users: read", or "No access" for a key without rights. */
export function describeRights(permissions: KeyPermissions, t: (key: string) => string): string {
  const granted = KEY_RESOURCES.filter((r) => permissions[r] !== 0).map(
    (r) => `${t(`api.resource.${r}`)}: ${t(`api.right_short_${permissions[r]}`)}`,
  );
  return granted.length ? granted.join(' · ') : t('api.no_access');
}
