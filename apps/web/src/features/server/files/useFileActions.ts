import { useQueryClient } from '@tanstack/react-query';
import { useTranslation } from 'react-i18next';
import { formatModeBits } from '../../../lib/shared.ts';
import {
  chmodFiles,
  compressFiles,
  copyFile,
  decompressFile,
  deleteFiles,
  fileKey,
  getFileDownloadUrl,
  listFiles,
  renameFiles,
  type FileEntry,
} from '../../../api/files.ts';
import { HttpError, httpErrorToHuman } from '../../../api/errors.ts';
import { flashError, useGlobalStore } from '../../../app/store.ts';
import { useServerStore } from '../store.ts';
import { FILES_FLASH } from './flash.ts';
import { movePairs, namesFolder } from './moveTargets.ts';
import { baseName, joinPath, normalizeDirectory, parentDirectory } from './paths.ts';
import { DEFAULT_FOLDER_MODE, modeForWire } from './rules.ts';
import { useFileSelection } from './selection.ts';
import { fileListKey } from './useFileList.ts';

/** The client's own timeout (`timeout of {n}ms exceeded`): the daemon may still finish the work. */
export function isTimeout(error: unknown): boolean {
  return error instanceof HttpError && error.status === null && error.message.startsWith('timeout of ');
}

/** Whether `path` is a folder the server has (its listing opens); any failure means no. */
async function isExistingFolder(serverId: string, path: string): Promise<boolean> {
  try {
    await listFiles(serverId, path);
    return true;
  } catch {
    return false;
  }
}

/** Browser navigation, apart so tests can watch it. */
export const browser = {
  open(url: string): void {
    window.location.assign(url);
  },
};

/**
 * The row and bulk actions of the file list in `directory` (spec 001 §4 "File list"): rename, move,
 * delete and chmod change the list at once, then read it again; a failure reads it again too (so
 * the list shows what is really there) and flashes the error. The selection is cleared after each.
 * Every action resolves to whether it worked.
 */
export function useFileActions(directory: string) {
  const { t } = useTranslation('files');
  const serverId = useServerStore((s) => s.server!.id);
  const queryClient = useQueryClient();
  const key = fileListKey(serverId, directory);

  const patchList = (change: (list: FileEntry[]) => FileEntry[]) =>
    queryClient.setQueryData<FileEntry[]>(key, (old) => (old ? change(old) : old));
  const refresh = () => void queryClient.invalidateQueries({ queryKey: key });
  const clearSelection = () => useFileSelection.getState().clear();
  const notice = (message: string) => {
    const store = useGlobalStore.getState();
    store.clearFlashes(FILES_FLASH);
    store.addFlash({ key: FILES_FLASH, type: 'info', message });
  };

  async function optimistic(change: (list: FileEntry[]) => FileEntry[], call: () => Promise<void>) {
    useGlobalStore.getState().clearFlashes(FILES_FLASH);
    await queryClient.cancelQueries({ queryKey: key });
    patchList(change);
    clearSelection();
    try {
      await call();
      return true;
    } catch (error) {
      flashError(FILES_FLASH, httpErrorToHuman(error));
      return false;
    } finally {
      refresh();
    }
  }

  const names = (entries: FileEntry[]) => new Set(entries.map((e) => e.key));

  return {
    rename: (entry: FileEntry, name: string) =>
      optimistic(
        (list) => list.map((f) => (f.key === entry.key ? { ...f, name, key: fileKey(name, f.isFile) } : f)),
        () => renameFiles(serverId, directory, [{ from: entry.name, to: name }]),
      ),

    /**
     * Moves to `destination`, a path from the server root: a folder, or one entry's full new path
     * (moveTargets.ts). A path that may be an existing folder is looked up first, so `/plugins`
     * moves into that folder rather than failing as "destination already exists".
     */
    move: async (entries: FileEntry[], destination: string) => {
      const names = entries.map((e) => e.name);
      const maybeFolder = entries.length === 1 && !namesFolder(destination);
      const isFolder = maybeFolder && (await isExistingFolder(serverId, normalizeDirectory(destination)));
      const pairs = movePairs(names, directory, destination, isFolder);
      if (pairs.length === 0) {
        clearSelection();
        return true;
      }
      // Moved within this folder (a rename), the row keeps its place under the new name.
      const renamedHere = new Map(
        pairs
          .filter((p) => parentDirectory(p.to) === directory)
          .map((p) => [baseName(p.from), baseName(p.to)]),
      );
      const moving = new Set(pairs.map((p) => baseName(p.from)));
      return optimistic(
        (list) =>
          list.flatMap((f) => {
            if (!moving.has(f.name)) return [f];
            const name = renamedHere.get(f.name);
            return name === undefined ? [] : [{ ...f, name, key: fileKey(name, f.isFile) }];
          }),
        () => renameFiles(serverId, '/', pairs),
      );
    },

    remove: (entries: FileEntry[]) => {
      const removing = names(entries);
      return optimistic(
        (list) => list.filter((f) => !removing.has(f.key)),
        () =>
          deleteFiles(
            serverId,
            directory,
            entries.map((e) => e.name),
          ),
      );
    },

    chmod: (entries: FileEntry[], digits: string) => {
      const changing = names(entries);
      const mode = modeForWire(digits);
      const bits = String(mode).padStart(3, '0');
      return optimistic(
        (list) =>
          list.map((f) =>
            changing.has(f.key)
              ? { ...f, modeBits: bits, mode: `${f.isFile ? '-' : 'd'}${formatModeBits(bits)}` }
              : f,
          ),
        () =>
          chmodFiles(
            serverId,
            directory,
            entries.map((e) => ({ file: e.name, mode })),
          ),
      );
    },

    copy: async (entry: FileEntry) => {
      useGlobalStore.getState().clearFlashes(FILES_FLASH);
      try {
        await copyFile(serverId, joinPath(directory, entry.name));
        return true;
      } catch (error) {
        flashError(FILES_FLASH, httpErrorToHuman(error));
        return false;
      } finally {
        refresh();
      }
    },

    archive: async (entries: FileEntry[]) => {
      useGlobalStore.getState().clearFlashes(FILES_FLASH);
      try {
        const archive = await compressFiles(
          serverId,
          directory,
          entries.map((e) => e.name),
        );
        patchList((list) => [...list.filter((f) => f.key !== archive.key), archive]);
        return true;
      } catch (error) {
        if (isTimeout(error)) notice(t('compress_timeout'));
        else flashError(FILES_FLASH, httpErrorToHuman(error));
        return false;
      } finally {
        clearSelection();
        refresh();
      }
    },

    unarchive: async (entry: FileEntry) => {
      useGlobalStore.getState().clearFlashes(FILES_FLASH);
      try {
        await decompressFile(serverId, directory, entry.name);
        return true;
      } catch (error) {
        if (isTimeout(error)) notice(t('decompress_timeout'));
        else flashError(FILES_FLASH, httpErrorToHuman(error));
        return false;
      } finally {
        refresh();
      }
    },

    download: async (entry: FileEntry) => {
      useGlobalStore.getState().clearFlashes(FILES_FLASH);
      try {
        browser.open(await getFileDownloadUrl(serverId, joinPath(directory, entry.name)));
        return true;
      } catch (error) {
        flashError(FILES_FLASH, httpErrorToHuman(error));
        return false;
      }
    },

    /** A folder made by the directory modal shows at once, with the default mode, until the reload. */
    addFolder: (name: string) => {
      const now = new Date();
      const first = name.split('/').find(Boolean) ?? name;
      patchList((list) =>
        list.some((f) => f.key === fileKey(first, false))
          ? list
          : [
              ...list,
              {
                key: fileKey(first, false),
                name: first,
                mode: `d${formatModeBits(DEFAULT_FOLDER_MODE)}`,
                modeBits: DEFAULT_FOLDER_MODE,
                size: 0,
                isFile: false,
                isSymlink: false,
                mimetype: 'inode/directory',
                createdAt: now,
                modifiedAt: now,
              },
            ],
      );
      refresh();
    },
  };
}
