import { useEffect } from 'react';

/** Sets the document title while the calling page is shown (spec §2). */
export function useTitle(title: string | undefined): void {
  useEffect(() => {
    if (title) document.title = title;
  }, [title]);
}
