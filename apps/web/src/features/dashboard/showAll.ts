import { useCallback, useState } from 'react';

/** Storage key of the root admin's dashboard choice (spec 000 §2). */
export function showAllKey(uuid: string): string {
  return `${uuid}:show_all_servers`;
}

function read(key: string): boolean {
  try {
    return window.localStorage.getItem(key) === 'true';
  } catch {
    return false;
  }
}

/** The admin toggle, remembered per user in local storage so it survives reloads. */
export function useShowAllServers(uuid: string): [boolean, (on: boolean) => void] {
  const key = showAllKey(uuid);
  const [value, setValue] = useState(() => read(key));
  const set = useCallback(
    (on: boolean) => {
      setValue(on);
      try {
        window.localStorage.setItem(key, on ? 'true' : 'false');
      } catch {
        // Private mode: the choice lasts for this page only.
      }
    },
    [key],
  );
  return [value, set];
}
