import { useId, type InputHTMLAttributes, type Ref, type TextareaHTMLAttributes } from 'react';
import { capitalize } from '@talon/shared/format/text';

const INPUT =
  'focus-ring block w-full rounded-md border bg-zinc-900 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 transition-colors';

interface FieldChrome {
  label: string;
  /** Shown under the field once touched (spec §5). */
  error?: string;
  touched?: boolean;
  hint?: string;
}

function Chrome({
  id,
  label,
  error,
  touched,
  hint,
  children,
}: FieldChrome & { id: string; children: React.ReactNode }) {
  const showError = Boolean(touched && error);
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {label}
      </label>
      {children}
      {showError ? (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-400">
          {capitalize(error ?? '')}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} className="text-xs text-zinc-400">
            {hint}
          </p>
        )
      )}
    </div>
  );
}

export function TextField({
  label,
  error,
  touched,
  hint,
  ref,
  id: givenId,
  className = '',
  ...rest
}: FieldChrome & InputHTMLAttributes<HTMLInputElement> & { ref?: Ref<HTMLInputElement> }) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const invalid = Boolean(touched && error);
  return (
    <Chrome id={id} label={label} error={error} touched={touched} hint={hint}>
      <input
        id={id}
        ref={ref}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${INPUT} ${invalid ? 'border-red-500' : 'border-zinc-700 hover:border-zinc-500'} ${className}`}
        {...rest}
      />
    </Chrome>
  );
}

export function TextAreaField({
  label,
  error,
  touched,
  hint,
  ref,
  id: givenId,
  ...rest
}: FieldChrome & TextareaHTMLAttributes<HTMLTextAreaElement> & { ref?: Ref<HTMLTextAreaElement> }) {
  const autoId = useId();
  const id = givenId ?? autoId;
  const invalid = Boolean(touched && error);
  return (
    <Chrome id={id} label={label} error={error} touched={touched} hint={hint}>
      <textarea
        id={id}
        ref={ref}
        aria-invalid={invalid}
        aria-describedby={invalid ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={`${INPUT} min-h-24 font-mono ${invalid ? 'border-red-500' : 'border-zinc-700 hover:border-zinc-500'}`}
        {...rest}
      />
    </Chrome>
  );
}
