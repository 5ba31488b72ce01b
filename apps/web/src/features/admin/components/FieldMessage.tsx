import type { ReactNode } from 'react';

/**
 * Under a field: its error (announced) or, without one, its hint. The ids are the ones the field's
 * aria-describedby names (`<id>-error`, `<id>-hint`).
 */
export function FieldMessage({ id, error, hint }: { id: string; error?: ReactNode; hint?: ReactNode }) {
  if (error) {
    return (
      <p id={`${id}-error`} role="alert" className="text-xs text-red-400">
        {error}
      </p>
    );
  }
  return hint ? (
    <p id={`${id}-hint`} className="text-xs text-zinc-400">
      {hint}
    </p>
  ) : null;
}
