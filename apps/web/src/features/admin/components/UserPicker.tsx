import { useEffect, useId, useRef, useState, type KeyboardEvent, type Ref } from 'react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { getUser, listUsers, type AdminUser } from '../../../api/application/users.ts';
import { SEARCH_DEBOUNCE_MS } from './ListToolbar.tsx';
import { FieldMessage } from './FieldMessage.tsx';

const INPUT =
  'focus-ring block w-full rounded-md border bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500';

function userLabel(user: AdminUser): string {
  return `${user.username} (${user.email})`;
}

/**
 * Choosing one user by typing part of their name or email (the users list's `search=`): a combobox
 * with its list below. Arrow keys move, Enter chooses, Escape closes and puts the chosen user back.
 * Typing does not change the choice until a user is picked (or the clear button is used), so a
 * filter built on it does not refetch on every key.
 */
export function UserPicker({
  label,
  value,
  onChange,
  error,
  hint,
  placeholder,
  clearLabel,
  compact = false,
  inputRef,
}: {
  label: string;
  /** The chosen user's id, or null. */
  value: number | null;
  onChange: (id: number | null, user: AdminUser | null) => void;
  error?: string;
  hint?: string;
  placeholder?: string;
  /** Shows a clear button with this name while a user is chosen. */
  clearLabel?: string;
  /** Label beside the field (list toolbars) instead of above it (forms). */
  compact?: boolean;
  /** The text box, e.g. react-hook-form's field.ref so a failed check focuses it. */
  inputRef?: Ref<HTMLInputElement>;
}) {
  const { t } = useTranslation('admin');
  const id = useId();
  const [chosen, setChosen] = useState<AdminUser | null>(null);
  const [text, setText] = useState('');
  const [search, setSearch] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const input = useRef<HTMLInputElement>(null);

  // The id came from elsewhere (the address bar, a saved form): look the user up to name them.
  const known = useQuery({
    queryKey: ['admin', 'users', 'item', value],
    queryFn: () => getUser(value!),
    enabled: value !== null && chosen?.id !== value,
  });
  const current = value === null ? null : chosen?.id === value ? chosen : (known.data ?? null);

  useEffect(() => {
    if (!open) setText(current ? userLabel(current) : '');
  }, [current, open]);

  useEffect(() => {
    const timer = setTimeout(() => setSearch(text.trim()), SEARCH_DEBOUNCE_MS);
    return () => clearTimeout(timer);
  }, [text]);

  const results = useQuery({
    queryKey: ['admin', 'users', 'picker', search],
    queryFn: () => listUsers({ search: search || undefined, perPage: 10 }),
    enabled: open,
    placeholderData: keepPreviousData,
  });
  const options = results.data?.items ?? [];

  const choose = (user: AdminUser | null) => {
    setChosen(user);
    setOpen(false);
    setText(user ? userLabel(user) : '');
    onChange(user?.id ?? null, user);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      if (!open) setOpen(true);
      else if (options.length > 0) {
        const step = event.key === 'ArrowDown' ? 1 : -1;
        setActive((index) => (index + step + options.length) % options.length);
      }
    } else if (event.key === 'Enter' && open) {
      event.preventDefault();
      const option = options[active];
      if (option) choose(option);
    } else if (event.key === 'Escape' && open) {
      event.preventDefault();
      setOpen(false);
    }
  };

  const listId = `${id}-list`;
  const invalid = Boolean(error);
  const describedBy = error ? `${id}-error` : hint ? `${id}-hint` : undefined;

  return (
    <div className={compact ? 'flex items-center gap-2' : 'space-y-1'}>
      <label
        htmlFor={id}
        className={
          compact
            ? 'text-xs font-semibold text-zinc-400 uppercase'
            : 'block text-xs font-semibold tracking-wide text-zinc-300 uppercase'
        }
      >
        {label}
      </label>
      <div className={`relative ${compact ? 'min-w-0 flex-1 sm:w-64 sm:flex-none' : ''}`}>
        <div className="flex gap-1">
          <input
            ref={(element) => {
              input.current = element;
              if (typeof inputRef === 'function') inputRef(element);
              else if (inputRef) inputRef.current = element;
            }}
            id={id}
            type="text"
            role="combobox"
            autoComplete="off"
            spellCheck={false}
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && options[active] ? `${id}-option-${options[active].id}` : undefined}
            aria-invalid={invalid}
            aria-describedby={describedBy}
            placeholder={placeholder ?? t('user_picker.placeholder')}
            value={text}
            onChange={(event) => {
              setText(event.target.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={(event) => event.target.select()}
            onClick={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
            className={`${INPUT} ${invalid ? 'border-red-500' : 'border-zinc-700 hover:border-zinc-500'}`}
          />
          {clearLabel && value !== null && (
            <button
              type="button"
              aria-label={clearLabel}
              title={clearLabel}
              onClick={() => {
                choose(null);
                input.current?.focus();
              }}
              className="focus-ring shrink-0 rounded-md border border-zinc-700 px-2 text-zinc-300 hover:border-zinc-500 hover:text-white"
            >
              <span aria-hidden="true">×</span>
            </button>
          )}
        </div>
        {open && (
          <ul
            id={listId}
            role="listbox"
            aria-label={label}
            className="absolute z-20 mt-1 max-h-64 w-full min-w-[16rem] overflow-y-auto rounded-md border border-zinc-700 bg-zinc-900 py-1 shadow-lg"
          >
            {options.map((user, index) => (
              <li
                key={user.id}
                id={`${id}-option-${user.id}`}
                role="option"
                aria-selected={index === active}
                onMouseDown={(event) => event.preventDefault()}
                onClick={() => choose(user)}
                onMouseEnter={() => setActive(index)}
                className={`cursor-pointer px-3 py-2 text-sm ${
                  index === active ? 'bg-sky-700/40 text-white' : 'text-zinc-200'
                }`}
              >
                <span className="font-medium">{user.username}</span>{' '}
                <span className="text-zinc-400">{user.email}</span>
              </li>
            ))}
            {options.length === 0 && (
              <li className="px-3 py-2 text-sm text-zinc-400">
                {results.isPending
                  ? t('user_picker.searching')
                  : results.error
                    ? t('user_picker.failed')
                    : t('user_picker.none')}
              </li>
            )}
          </ul>
        )}
      </div>
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}
