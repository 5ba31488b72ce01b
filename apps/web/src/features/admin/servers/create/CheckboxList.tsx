import { useId } from 'react';
import { FieldMessage } from '../../components/FieldMessage.tsx';

/**
 * Choosing several items from a list (extra addresses, locations): a group of checkboxes that
 * scrolls when long. Each checkbox is named by its label; the group by `label`.
 */
export function CheckboxList({
  label,
  options,
  value,
  onChange,
  emptyText,
  hint,
  error,
}: {
  label: string;
  options: { value: string; label: string }[];
  value: string[];
  onChange: (value: string[]) => void;
  emptyText: string;
  hint?: string;
  error?: string;
}) {
  const id = useId();
  const chosen = new Set(value);
  return (
    <fieldset
      className="min-w-0 space-y-1"
      aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
      aria-invalid={error !== undefined}
    >
      <legend className="mb-1 block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {label}
      </legend>
      {options.length === 0 ? (
        <p className="rounded-md border border-dashed border-zinc-700 px-3 py-2 text-sm text-zinc-400">
          {emptyText}
        </p>
      ) : (
        <div
          className={`max-h-48 overflow-y-auto rounded-md border bg-zinc-900 p-1 ${
            error ? 'border-red-500' : 'border-zinc-700'
          }`}
        >
          {options.map((option) => (
            <label
              key={option.value}
              className="flex cursor-pointer items-center gap-2 rounded px-2 py-1.5 text-sm text-zinc-200 hover:bg-zinc-800"
            >
              <input
                type="checkbox"
                checked={chosen.has(option.value)}
                onChange={(event) =>
                  onChange(
                    event.target.checked
                      ? [...value, option.value]
                      : value.filter((item) => item !== option.value),
                  )
                }
                className="focus-ring h-4 w-4 rounded border-zinc-600 bg-zinc-900 accent-sky-500"
              />
              {option.label}
            </label>
          ))}
        </div>
      )}
      <FieldMessage id={id} error={error} hint={hint} />
    </fieldset>
  );
}
