import { useId } from 'react';

/** A labelled on/off switch with a hint, operable with Space and Enter like any button. */
export function Switch({
  label,
  hint,
  checked,
  onChange,
  disabled = false,
}: {
  label: string;
  hint: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <button
        type="button"
        role="switch"
        aria-checked={checked}
        aria-labelledby={`${id}-label`}
        aria-describedby={`${id}-hint`}
        disabled={disabled}
        onClick={() => onChange(!checked)}
        className="focus-ring mt-0.5 shrink-0 rounded-full disabled:cursor-not-allowed disabled:opacity-50"
      >
        <span
          aria-hidden="true"
          className={`relative inline-flex h-6 w-11 rounded-full border transition-colors ${
            checked ? 'border-sky-500 bg-sky-600' : 'border-zinc-600 bg-zinc-800'
          }`}
        >
          <span
            className={`absolute top-0.5 h-4.5 w-4.5 rounded-full bg-white shadow transition-transform ${
              checked ? 'translate-x-5.5' : 'translate-x-0.5'
            }`}
          />
        </span>
      </button>
      <div className="min-w-0">
        <p id={`${id}-label`} className="text-sm font-medium text-zinc-100">
          {label}
        </p>
        <p id={`${id}-hint`} className="text-xs text-zinc-400">
          {hint}
        </p>
      </div>
    </div>
  );
}
