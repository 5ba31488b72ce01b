import { useEffect, useRef, useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { getFileUploadUrl, uploadFiles } from '../../../api/files.ts';
import { httpErrorToHuman } from '../../../api/errors.ts';
import { flashError } from '../../../app/store.ts';
import { FILES_FLASH } from './flash.ts';
import { fileListKey } from './useFileList.ts';

export interface Upload {
  id: number;
  name: string;
  directory: string;
  loaded: number;
  total: number;
}

let nextId = 0;

/**
 * Uploads (spec 001 §2, §7): each file gets its own signed URL (one use each) and its own progress
 * bar. A finished upload reloads the list of the folder it went to; leaving the page cancels the
 * ones still running.
 */
export function useUploads(serverId: string) {
  const queryClient = useQueryClient();
  const [uploads, setUploads] = useState<Upload[]>([]);
  const controllers = useRef(new Map<number, AbortController>());

  useEffect(() => {
    const running = controllers.current;
    return () => {
      for (const controller of running.values()) controller.abort();
      running.clear();
    };
  }, []);

  const patch = (id: number, change: Partial<Upload>) =>
    setUploads((list) => list.map((u) => (u.id === id ? { ...u, ...change } : u)));
  const drop = (id: number) => {
    controllers.current.delete(id);
    setUploads((list) => list.filter((u) => u.id !== id));
  };

  const uploadOne = async (file: File, directory: string) => {
    const id = ++nextId;
    const controller = new AbortController();
    controllers.current.set(id, controller);
    setUploads((list) => [...list, { id, name: file.name, directory, loaded: 0, total: file.size }]);
    try {
      const url = await getFileUploadUrl(serverId);
      if (controller.signal.aborted) return;
      await uploadFiles(
        url,
        directory,
        [file],
        (loaded, total) => patch(id, { loaded, total }),
        controller.signal,
      );
    } catch (error) {
      if (!controller.signal.aborted) flashError(FILES_FLASH, httpErrorToHuman(error));
    } finally {
      drop(id);
      void queryClient.invalidateQueries({ queryKey: fileListKey(serverId, directory) });
    }
  };

  const start = (files: File[], directory: string) => {
    for (const file of files) void uploadOne(file, directory);
  };

  const cancel = (id: number) => controllers.current.get(id)?.abort();

  return { uploads, start, cancel };
}
