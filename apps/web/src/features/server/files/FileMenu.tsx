import { useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../../api/files.ts';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { ChmodModal } from './ChmodModal.tsx';
import { DeleteFilesModal } from './DeleteFilesModal.tsx';
import { MoveModal } from './MoveModal.tsx';
import { RenameModal } from './RenameModal.tsx';
import { isArchive } from './rules.ts';
import type { useFileActions } from './useFileActions.ts';

type Actions = ReturnType<typeof useFileActions>;
type ModalKind = 'rename' | 'move' | 'chmod' | 'delete' | null;

interface Item {
  id: string;
  label: string;
  danger?: boolean;
  run: () => void;
}

/**
 * The row's action menu (spec 001 §2): a button opening a list of actions, each shown only with its
 * permission. Arrow keys move between items, Escape or Tab closes it and gives focus back.
 */
export function FileMenu({
  entry,
  directory,
  actions,
  open,
  onOpenChange,
}: {
  entry: FileEntry;
  directory: string;
  actions: Actions;
  open: boolean;
  onOpenChange: (open: boolean) => void;
}) {
  const { t } = useTranslation('files');
  const permissions = useServerStore((s) => s.permissions);
  const [modal, setModal] = useState<ModalKind>(null);
  const menuId = useId();
  const wrapper = useRef<HTMLDivElement>(null);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLUListElement>(null);

  const items: Item[] = [];
  const show = (kind: Exclude<ModalKind, null>) => () => setModal(kind);
  if (can(permissions, 'file.update')) {
    items.push({ id: 'rename', label: t('menu.rename'), run: show('rename') });
    items.push({ id: 'move', label: t('menu.move'), run: show('move') });
    items.push({ id: 'permissions', label: t('menu.permissions'), run: show('chmod') });
  }
  if (entry.isFile && can(permissions, 'file.create')) {
    items.push({ id: 'copy', label: t('menu.copy'), run: () => void actions.copy(entry) });
  }
  if (isArchive(entry)) {
    if (can(permissions, 'file.create')) {
      items.push({ id: 'unarchive', label: t('menu.unarchive'), run: () => void actions.unarchive(entry) });
    }
  } else if (can(permissions, 'file.archive')) {
    items.push({ id: 'archive', label: t('menu.archive'), run: () => void actions.archive([entry]) });
  }
  if (entry.isFile && can(permissions, 'file.read-content')) {
    items.push({ id: 'download', label: t('menu.download'), run: () => void actions.download(entry) });
  }
  if (can(permissions, 'file.delete')) {
    items.push({ id: 'delete', label: t('menu.delete'), danger: true, run: show('delete') });
  }

  const close = (refocus: boolean) => {
    onOpenChange(false);
    if (refocus) button.current?.focus();
  };

  // Opening focuses the first item; a press anywhere outside closes the menu.
  useEffect(() => {
    if (!open) return;
    list.current?.querySelector<HTMLElement>('[role="menuitem"]')?.focus();
    const onDown = (event: MouseEvent) => {
      if (!wrapper.current?.contains(event.target as Node)) onOpenChange(false);
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, [open, onOpenChange]);

  const onKeyDown = (event: KeyboardEvent<HTMLUListElement>) => {
    const buttons = Array.from(list.current?.querySelectorAll<HTMLElement>('[role="menuitem"]') ?? []);
    const at = buttons.indexOf(document.activeElement as HTMLElement);
    const focus = (i: number) => buttons[(i + buttons.length) % buttons.length]?.focus();
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
      focus(buttons.length - 1);
    } else if (event.key === 'Tab') {
      close(false);
    }
  };

  if (items.length === 0) return <span className="w-8" aria-hidden="true" />;

  return (
    <div ref={wrapper}>
      <button
        ref={button}
        type="button"
        aria-label={t('menu.label', { name: entry.name })}
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? menuId : undefined}
        onClick={() => onOpenChange(!open)}
        className="focus-ring rounded p-1 text-zinc-400 hover:bg-zinc-800 hover:text-white"
      >
        <svg viewBox="0 0 20 20" className="h-5 w-5" fill="currentColor" aria-hidden="true">
          <circle cx="4" cy="10" r="1.6" />
          <circle cx="10" cy="10" r="1.6" />
          <circle cx="16" cy="10" r="1.6" />
        </svg>
      </button>
      {open && (
        <ul
          ref={list}
          id={menuId}
          role="menu"
          aria-label={t('menu.label', { name: entry.name })}
          onKeyDown={onKeyDown}
          className="animate-fade absolute right-4 z-40 mt-1 min-w-48 rounded-md border border-zinc-700 bg-zinc-900 p-1 shadow-xl"
        >
          {items.map((item) => (
            <li key={item.id} role="none">
              <button
                type="button"
                role="menuitem"
                tabIndex={-1}
                onClick={() => {
                  close(false);
                  item.run();
                }}
                className={`focus-ring block w-full rounded px-3 py-2 text-left text-sm hover:bg-zinc-800 ${item.danger ? 'text-red-400' : 'text-zinc-200'}`}
              >
                {item.label}
              </button>
            </li>
          ))}
        </ul>
      )}
      <RenameModal
        entry={entry}
        visible={modal === 'rename'}
        onDismissed={() => setModal(null)}
        onRename={(name) => {
          setModal(null);
          void actions.rename(entry, name);
        }}
      />
      <MoveModal
        entries={[entry]}
        directory={directory}
        visible={modal === 'move'}
        onDismissed={() => setModal(null)}
        onMove={(destination) => {
          setModal(null);
          void actions.move([entry], destination);
        }}
      />
      <ChmodModal
        entry={entry}
        visible={modal === 'chmod'}
        onDismissed={() => setModal(null)}
        onChmod={(digits) => {
          setModal(null);
          void actions.chmod([entry], digits);
        }}
      />
      <DeleteFilesModal
        entries={[entry]}
        visible={modal === 'delete'}
        onDismissed={() => setModal(null)}
        onConfirmed={() => {
          setModal(null);
          void actions.remove([entry]);
        }}
      />
    </div>
  );
}
