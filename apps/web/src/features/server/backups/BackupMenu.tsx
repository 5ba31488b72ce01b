import { useEffect, useId, useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';

export interface BackupMenuItem {
  id: string;
  label: string;
  danger?: boolean;
  /** shown but not usable (Delete of a locked backup) */
  disabled?: boolean;
  run: () => void;
}

/**
 * A backup's action menu: a button opening a list. Arrow keys, Home and End move between items;
 * Escape closes it and gives focus back to the button; Tab closes it and moves on. `disabled`
 * (a running backup) keeps the button in sight but unusable.
 */
export function BackupMenu({
  name,
  items,
  disabled,
  open,
  onOpenChange,
}: {
  name: string;
  items: BackupMenuItem[];
  disabled: boolean;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('backups');
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);
  const shown = open && !disabled;

  useEffect(() => {
    if (!shown) return;
    // The first usable item takes the focus (a locked backup's Delete is listed but not usable).
    const first =
      list.current?.querySelector<HTMLElement>('[role="menuitem"]:not([aria-disabled="true"])') ??
      list.current?.querySelector<HTMLElement>('[role="menuitem"]');
    first?.focus();
    const onDown = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [shown, onOpenChange]);

  const close = (refocus: boolean) => {
    onOpenChange(false);
    if (refocus) button.current?.focus();
  };

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const entries = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const at = entries.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => entries[(i + entries.length) % entries.length]?.focus();
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      close(true);
    } else if (event.key === 'ArrowDown') {
      event.preventDefault();
      focus(at + 1);
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      focus(at - 1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      focus(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      focus(entries.length - 1);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  return (
    <div ref={wrapper} className="relative">
      <button
        ref={button}
        type="button"
        disabled={disabled}
        aria-label={t(disabled ? 'menu.running' : 'menu.label', { name })}
        aria-haspopup="menu"
        aria-expanded={shown}
        aria-controls={shown ? menuId : undefined}
        onClick={() => onOpenChange(!open)}
        className="focus-ring rounded p-2 text-zinc-400 hover:bg-zinc-800 hover:text-white disabled:cursor-not-allowed disabled:opacity-40 disabled:hover:bg-transparent"
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
          <circle cx="4" cy="10" r="1.6" />
          <circle cx="10" cy="10" r="1.6" />
          <circle cx="16" cy="10" r="1.6" />
        </svg>
      </button>
      {shown && (
        <ul
          ref={list}
          id={menuId}
          role="menu"
          aria-label={t('menu.label', { name })}
          onKeyDown={onKeyDown}
          className="animate-fade absolute right-0 z-40 mt-1 min-w-52 rounded-md border border-zinc-700 bg-zinc-900 p-1 shadow-xl"
        >
          {items.map((item) => (
            <li key={item.id} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                aria-disabled={item.disabled || undefined}
                onClick={() => {
                  if (item.disabled) return;
                  close(false);
                  item.run();
                }}
                className={`focus-ring block w-full rounded px-3 py-2 text-left text-sm ${
                  item.disabled
                    ? 'cursor-not-allowed text-zinc-500'
                    : `hover:bg-zinc-800 ${item.danger ? 'text-red-400' : 'text-zinc-200'}`
                }`}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
