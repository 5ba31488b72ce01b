import { useId, type ReactNode, type SelectHTMLAttributes } from 'react';
import type { FieldErrors, FieldValues, Path, UseFormRegister, UseFormSetError } from 'react-hook-form';
import { HttpError } from '../../../api/errors.ts';
import { TextAreaField, TextField } from '../../../components/Field.tsx';
import { FieldMessage } from './FieldMessage.tsx';

/**
 * react-hook-form glue over components/Field.tsx for the admin forms:
 *   <FormText form={form} name="email" label="Email" />
 * shows the field's error (from zod or from the API's 422) under it.
 */
interface FormBits<V extends FieldValues> {
  register: UseFormRegister<V>;
  formState: { errors: FieldErrors<V> };
}

function errorOf<V extends FieldValues>(form: FormBits<V>, name: Path<V>): string | undefined {
  let node: unknown = form.formState.errors;
  for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
  const message = (node as { message?: unknown } | undefined)?.message;
  return typeof message === 'string' ? message : undefined;
}

export function FormText<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  type = 'text',
  readOnly,
  ...rest
}: {
  form: FormBits<V>;
  name: Path<V>;
  label: string;
  hint?: string;
  type?: string;
  readOnly?: boolean;
  autoComplete?: string;
  placeholder?: string;
  inputMode?: 'numeric' | 'text' | 'email';
}) {
  const error = errorOf(form, name);
  return (
    <TextField
      label={label}
      hint={hint}
      type={type}
      readOnly={readOnly}
      className={readOnly ? 'cursor-not-allowed opacity-60' : ''}
      error={error}
      touched={error !== undefined}
      {...rest}
      {...form.register(name, type === 'number' ? { valueAsNumber: true } : undefined)}
    />
  );
}

export function FormTextArea<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  rows,
}: {
  form: FormBits<V>;
  name: Path<V>;
  label: string;
  hint?: string;
  rows?: number;
}) {
  const error = errorOf(form, name);
  return (
    <TextAreaField
      label={label}
      hint={hint}
      rows={rows}
      error={error}
      touched={error !== undefined}
      {...form.register(name)}
    />
  );
}

const SELECT =
  'focus-ring block w-full rounded-md border border-zinc-700 bg-zinc-900 px-3 py-2 text-sm text-zinc-100 hover:border-zinc-500 disabled:opacity-60';

/** A labelled select; `options` values are strings as the DOM gives them. */
export function SelectField({
  label,
  hint,
  error,
  options,
  ...rest
}: {
  label: string;
  hint?: string;
  error?: string;
  options: { value: string; label: string }[];
} & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-xs font-semibold tracking-wide text-zinc-300 uppercase">
        {label}
      </label>
      <select
        id={id}
        aria-invalid={error !== undefined}
        aria-describedby={error ? `${id}-error` : hint ? `${id}-hint` : undefined}
        className={SELECT}
        {...rest}
      >
        {options.map((option) => (
          <option key={option.value} value={option.value}>
            {option.label}
          </option>
        ))}
      </select>
      <FieldMessage id={id} error={error} hint={hint} />
    </div>
  );
}

export function FormSelect<V extends FieldValues>({
  form,
  name,
  ...rest
}: {
  form: FormBits<V>;
  name: Path<V>;
  label: string;
  hint?: string;
  options: { value: string; label: string }[];
  disabled?: boolean;
}) {
  return <SelectField error={errorOf(form, name)} {...rest} {...form.register(name)} />;
}

/** A checkbox with its label beside it and an optional line of help below. */
export function FormCheckbox<V extends FieldValues>({
  form,
  name,
  label,
  hint,
  disabled,
}: {
  form: FormBits<V>;
  name: Path<V>;
  label: ReactNode;
  hint?: string;
  disabled?: boolean;
}) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <input
        id={id}
        type="checkbox"
        disabled={disabled}
        aria-describedby={hint ? `${id}-hint` : undefined}
        className="focus-ring mt-0.5 h-4 w-4 rounded border-zinc-600 bg-zinc-900 accent-sky-500"
        {...form.register(name)}
      />
      <div>
        <label htmlFor={id} className="text-sm text-zinc-200">
          {label}
        </label>
        {hint && (
          <p id={`${id}-hint`} className="text-xs text-zinc-400">
            {hint}
          </p>
        )}
      </div>
    </div>
  );
}

/**
 * Puts a 422 answer's per-field errors (`meta.source_field`, dotted wire names) on the form's
 * fields. `fieldFor` maps a wire name to the form's name (default: the same). Answers whether any
 * error was placed; the caller shows the others (or the first detail) as a flash.
 */
export function applyFieldErrors<V extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<V>,
  fieldFor: (wireField: string) => Path<V> | null = (field) => field as Path<V>,
): boolean {
  if (!(error instanceof HttpError) || error.status !== 422) return false;
  const errors = (error.data as { errors?: { detail?: string; meta?: { source_field?: string } }[] } | null)
    ?.errors;
  let placed = false;
  for (const entry of errors ?? []) {
    const source = entry.meta?.source_field;
    const field = source ? fieldFor(source) : null;
    if (field && entry.detail) {
      setError(field, { type: 'server', message: entry.detail });
      placed = true;
    }
  }
  return placed;
}
