import type { FileEntry } from '../../../api/files.ts';
import { isArchive } from './rules.ts';

const base = {
  viewBox: '0 0 24 24',
  fill: 'none',
  stroke: 'currentColor',
  strokeWidth: 1.8,
  strokeLinecap: 'round',
  strokeLinejoin: 'round',
} as const;

/** Folder, archive, link or plain file; decorative (the name says what it is). */
export function FileIcon({ entry }: { entry: FileEntry }) {
  if (!entry.isFile) {
    return (
      <svg {...base} className="h-5 w-5 shrink-0 text-sky-400" aria-hidden="true">
        <path d="M3 7a2 2 0 0 1 2-2h4l2 2h8a2 2 0 0 1 2 2v8a2 2 0 0 1-2 2H5a2 2 0 0 1-2-2z" />
      </svg>
    );
  }
  if (entry.isSymlink) {
    return (
      <svg {...base} className="h-5 w-5 shrink-0 text-emerald-300" aria-hidden="true">
        <path d="M10 14a4 4 0 0 0 5.7 0l3-3a4 4 0 0 0-5.7-5.7l-1 1" />
        <path d="M14 10a4 4 0 0 0-5.7 0l-3 3a4 4 0 0 0 5.7 5.7l1-1" />
      </svg>
    );
  }
  if (isArchive(entry)) {
    return (
      <svg {...base} className="h-5 w-5 shrink-0 text-amber-200" aria-hidden="true">
        <rect x="3" y="4" width="18" height="5" rx="1" />
        <path d="M5 9v10a1 1 0 0 0 1 1h12a1 1 0 0 0 1-1V9M10 13h4" />
      </svg>
    );
  }
  return (
    <svg {...base} className="h-5 w-5 shrink-0 text-zinc-400" aria-hidden="true">
      <path d="M14 3H7a2 2 0 0 0-2 2v14a2 2 0 0 0 2 2h10a2 2 0 0 0 2-2V8z" />
      <path d="M14 3v5h5" />
    </svg>
  );
}
