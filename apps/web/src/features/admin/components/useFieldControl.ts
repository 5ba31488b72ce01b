import type { FieldPath, FieldPathValue, FieldValues, UseFormReturn } from 'react-hook-form';

/** A custom input's link to its form field (what <Controller> hands its render function). */
export interface FieldControl<T> {
  name: string;
  value: T;
  /** The field's problem, in words. */
  error: string | undefined;
  onChange: (value: T) => void;
  onBlur: () => void;
  ref: (element: HTMLElement | null) => void;
}

/**
 * What react-hook-form's <Controller> hands a custom input (value, onChange, onBlur, ref, error),
 * made of useForm's own methods. <Controller> would add useController, useFormState and useWatch to
 * the react-hook-form code the sign-in page downloads too (one shared chunk), whose budget is full.
 * Changes go through the field's registered handlers, so they are checked when <Controller>'s would be.
 */
export function useFieldControl<V extends FieldValues, N extends FieldPath<V>>(
  form: UseFormReturn<V>,
  name: N,
): FieldControl<FieldPathValue<V, N>> {
  const registered = form.register(name);
  return {
    name,
    value: form.watch(name),
    error: form.getFieldState(name, form.formState).error?.message,
    onChange: (value: FieldPathValue<V, N>) => {
      void registered.onChange({ target: { name, value }, type: 'change' });
    },
    onBlur: () => {
      void registered.onBlur({ target: { name, value: form.getValues(name) }, type: 'blur' });
    },
    /** Lets a failed check focus this input, as it does a registered one (what <Controller> does). */
    ref: (element: HTMLElement | null) => {
      let node: unknown = form.control._fields;
      for (const part of name.split('.')) node = (node as Record<string, unknown> | undefined)?.[part];
      const field = node as { _f?: { ref: unknown } } | undefined;
      if (field?._f && element) field._f.ref = { focus: () => element.focus() };
    },
  };
}
