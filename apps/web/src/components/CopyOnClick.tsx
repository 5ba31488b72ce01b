import { useEffect, useState, type ReactNode } from 'react';
import { createPortal } from 'react-dom';
import { useTranslation } from 'react-i18next';
import { COPY_NOTICE_MS } from '../lib/copyNotice.ts';

/** Wraps content in a button that copies `text`, then shows the notice for 2500 ms (spec §2). */
export function CopyOnClick({
  text,
  children,
  className = '',
}: {
  text: string;
  children: ReactNode;
  className?: string;
}) {
  const { t } = useTranslation('common');
  const [copied, setCopied] = useState(false);

  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPY_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [copied]);

  const copy = () => {
    const done = () => setCopied(true);
    if (navigator.clipboard?.writeText) {
      navigator.clipboard.writeText(text).then(done, () => fallbackCopy(text) && done());
    } else if (fallbackCopy(text)) {
      done();
    }
  };

  return (
    <>
      <button
        type="button"
        title={t('copy.hint')}
        onClick={copy}
        className={`focus-ring cursor-pointer text-left ${className}`}
      >
        {children}
      </button>
      {copied &&
        createPortal(
          <div
            role="status"
            className="animate-fade fixed right-4 bottom-4 z-[60] max-w-sm rounded-md bg-zinc-100 px-4 py-2 text-sm break-all text-zinc-900 shadow-lg"
          >
            {t('copy.notice', { text })}
          </div>,
          document.body,
        )}
    </>
  );
}

function fallbackCopy(text: string): boolean {
  const area = document.createElement('textarea');
  area.value = text;
  area.style.position = 'fixed';
  area.style.opacity = '0';
  document.body.appendChild(area);
  area.select();
  let ok = false;
  try {
    ok = document.execCommand('copy');
  } catch {
    ok = false;
  }
  area.remove();
  return ok;
}
