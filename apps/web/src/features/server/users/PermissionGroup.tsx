import { useEffect, useId, useRef, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { capitalize } from '@talon/shared/format/text';
import type { CatalogueGroup } from './rules.ts';

const CHECKBOX = 'focus-ring mt-0.5 h-4 w-4 shrink-0 disabled:cursor-not-allowed';

/**
 * One catalogue group in the modal (spec 001 §5): its description, a checkbox that selects or
 * clears the whole group, and one checkbox per permission with its description. Permissions the
 * signed-in user may not give are shown but cannot be ticked.
 */
export function PermissionGroup({
  group,
  selected,
  selectable,
  readOnly,
  onChange,
  children,
}: {
  group: CatalogueGroup;
  selected: ReadonlySet<string>;
  selectable: (permission: string) => boolean;
  readOnly: boolean;
  onChange: (permissions: string[], on: boolean) => void;
  /** Extra fields shown under the group's permissions (the folders of the File group). */
  children?: ReactNode;
}) {
  const { t } = useTranslation('users');
  const id = useId();
  const groupBox = useRef<HTMLInputElement>(null);
  const usable = group.keys.filter((k) => selectable(k.permission)).map((k) => k.permission);
  const chosen = usable.filter((p) => selected.has(p));
  const all = usable.length > 0 && chosen.length === usable.length;
  const some = chosen.length > 0 && !all;
  useEffect(() => {
    if (groupBox.current) groupBox.current.indeterminate = some;
  }, [some]);

  return (
    <fieldset
      className="rounded-lg border border-zinc-800 bg-zinc-950/40 p-4"
      aria-describedby={`${id}-description`}
      data-testid={`permission-group-${group.name}`}
    >
      <legend className="sr-only">{capitalize(group.name)}</legend>
      <div className="flex items-start gap-3">
        <input
          ref={groupBox}
          id={`${id}-all`}
          type="checkbox"
          className={CHECKBOX}
          checked={all}
          disabled={readOnly || usable.length === 0}
          onChange={() => onChange(usable, !all)}
          aria-label={t('group_toggle', { group: capitalize(group.name) })}
        />
        <div className="min-w-0">
          <label htmlFor={`${id}-all`} className="text-sm font-semibold text-zinc-100">
            {capitalize(group.name)}
          </label>
          <p id={`${id}-description`} className="text-xs text-zinc-400">
            {group.description}
          </p>
        </div>
      </div>
      <ul className="mt-3 grid grid-cols-1 gap-3 sm:grid-cols-2">
        {group.keys.map((key) => {
          const allowed = selectable(key.permission);
          const boxId = `${id}-${key.key}`;
          return (
            <li key={key.key} className="flex items-start gap-3">
              <input
                id={boxId}
                type="checkbox"
                className={CHECKBOX}
                checked={selected.has(key.permission)}
                disabled={readOnly || !allowed}
                onChange={(event) => onChange([key.permission], event.currentTarget.checked)}
                aria-describedby={`${boxId}-text`}
              />
              <div className={`min-w-0 ${allowed ? '' : 'opacity-50'}`}>
                <label htmlFor={boxId} className="font-mono text-sm text-zinc-100">
                  {key.key}
                </label>
                <p id={`${boxId}-text`} className="text-xs text-zinc-400">
                  {key.description}
                </p>
              </div>
            </li>
          );
        })}
      </ul>
      {children}
    </fieldset>
  );
}
