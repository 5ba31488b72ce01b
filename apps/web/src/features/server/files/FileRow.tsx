import { useState } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import type { FileEntry } from '../../../api/files.ts';
import { formatBytes } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { FileIcon } from './FileIcon.tsx';
import { FileMenu } from './FileMenu.tsx';
import { hashFor, joinPath } from './paths.ts';
import { isEditable } from './rules.ts';
import { formatModified } from './time.ts';
import type { useFileActions } from './useFileActions.ts';

/**
 * One entry (spec 001 §2): checkbox (when a bulk action is allowed), icon, name, size (files only) and modified time, then the
 * action menu, also opened by a right click. Folders open by their name; editable files open in the
 * editor by theirs when the user may read file contents (`canOpen`).
 */
export function FileRow({
  entry,
  directory,
  selectable,
  canOpen,
  selected,
  onToggle,
  actions,
  now,
}: {
  entry: FileEntry;
  directory: string;
  selectable: boolean;
  canOpen: boolean;
  selected: boolean;
  onToggle: () => void;
  actions: ReturnType<typeof useFileActions>;
  now: Date;
}) {
  const { t } = useTranslation('files');
  const serverId = useServerStore((s) => s.server!.id);
  const [menuOpen, setMenuOpen] = useState(false);
  const size = entry.isFile ? formatBytes(entry.size) : null;
  const modified = formatModified(entry.modifiedAt, now);
  const name = (
    <span className="truncate" title={entry.name}>
      {entry.name}
    </span>
  );

  return (
    <li
      data-testid="file-row"
      data-name={entry.name}
      onContextMenu={(event) => {
        event.preventDefault();
        setMenuOpen(true);
      }}
      className={`relative flex items-center gap-3 px-3 py-2 sm:px-4 ${selected ? 'bg-sky-950/60' : 'hover:bg-zinc-800'}`}
    >
      {selectable && (
        <input
          type="checkbox"
          checked={selected}
          onChange={onToggle}
          aria-label={t('select_one', { name: entry.name })}
          className="focus-ring h-4 w-4 shrink-0"
        />
      )}
      <FileIcon entry={entry} />
      <div className="flex min-w-0 flex-1 flex-col">
        {entry.isFile && canOpen && isEditable(entry) ? (
          <Link
            to={`/server/${serverId}/files/edit${hashFor(joinPath(directory, entry.name))}`}
            state={{ mimetype: entry.mimetype }}
            className="focus-ring flex min-w-0 rounded text-sm text-zinc-100 hover:text-white"
          >
            {name}
          </Link>
        ) : entry.isFile ? (
          <span className="flex min-w-0 text-sm text-zinc-100">{name}</span>
        ) : (
          <Link
            to={{ hash: hashFor(joinPath(directory, entry.name)) }}
            className="focus-ring flex min-w-0 rounded text-sm font-medium text-zinc-100 hover:text-white"
          >
            {name}
          </Link>
        )}
        {/* Phones: the size and date columns fold into a line under the name. */}
        <span className="text-xs text-zinc-500 sm:hidden">{size ? `${size} · ${modified}` : modified}</span>
      </div>
      <span className="hidden w-[144px] shrink-0 text-right text-xs text-zinc-400 sm:block">{size}</span>
      <time
        dateTime={entry.modifiedAt.toISOString()}
        title={entry.modifiedAt.toLocaleString()}
        className="hidden w-[144px] shrink-0 text-right text-xs text-zinc-400 sm:block"
      >
        {modified}
      </time>
      <FileMenu
        entry={entry}
        directory={directory}
        actions={actions}
        open={menuOpen}
        onOpenChange={setMenuOpen}
      />
    </li>
  );
}
