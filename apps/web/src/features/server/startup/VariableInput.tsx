import { useTranslation } from 'react-i18next';
import { BOOLEAN_OFF, BOOLEAN_ON, isOn, type VariableInputKind } from './variableInput.ts';

const FIELD =
  'focus-ring block w-full rounded-md border bg-zinc-950 px-3 py-2 text-sm text-zinc-100 placeholder-zinc-500 transition-colors read-only:cursor-default read-only:border-dashed read-only:bg-zinc-900 read-only:text-zinc-400 disabled:cursor-not-allowed disabled:border-dashed disabled:bg-zinc-900 disabled:text-zinc-400';

interface Props {
  id: string;
  kind: VariableInputKind;
  value: string;
  placeholder: string;
  readOnly: boolean;
  invalid: boolean;
  describedBy: string;
  onChange: (value: string) => void;
}

/** The field of one startup variable: a select, an on/off switch or a text input (see variableInput). */
export function VariableInput({
  id,
  kind,
  value,
  placeholder,
  readOnly,
  invalid,
  describedBy,
  onChange,
}: Props) {
  const { t } = useTranslation('startup');
  const border = invalid
    ? 'border-red-500'
    : readOnly
      ? 'border-zinc-700'
      : 'border-zinc-700 hover:border-zinc-500';

  if (kind.kind === 'boolean') {
    const on = isOn(value);
    return (
      <button
        id={id}
        type="button"
        role="switch"
        aria-checked={on}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        disabled={readOnly}
        onClick={() => onChange(on ? BOOLEAN_OFF : BOOLEAN_ON)}
        className="focus-ring group inline-flex items-center gap-3 rounded-md py-1 text-sm text-zinc-200 disabled:cursor-not-allowed disabled:opacity-70"
      >
        <span
          aria-hidden="true"
          className={`relative inline-flex h-6 w-11 shrink-0 rounded-full border transition-colors ${
            on ? 'border-sky-500 bg-sky-600' : 'border-zinc-600 bg-zinc-800'
          }`}
        >
          <span
            className={`absolute top-0.5 h-4.5 w-4.5 rounded-full bg-white shadow transition-transform ${
              on ? 'translate-x-5.5' : 'translate-x-0.5'
            }`}
          />
        </span>
        {on ? t('switch_on') : t('switch_off')}
      </button>
    );
  }

  if (kind.kind === 'select') {
    // A stored value outside the list (set before the rule changed) is still shown as it is.
    const options = kind.options.includes(value) ? kind.options : [value, ...kind.options];
    return (
      <select
        id={id}
        value={value}
        disabled={readOnly}
        aria-describedby={describedBy}
        aria-invalid={invalid}
        onChange={(event) => onChange(event.target.value)}
        className={`${FIELD} ${border}`}
      >
        {options.map((option) => (
          <option key={option} value={option}>
            {option === '' ? t('empty_option') : option}
          </option>
        ))}
      </select>
    );
  }

  return (
    <input
      id={id}
      type="text"
      value={value}
      placeholder={placeholder}
      readOnly={readOnly}
      inputMode={kind.numeric ? 'numeric' : undefined}
      autoComplete="off"
      spellCheck={false}
      aria-describedby={describedBy}
      aria-invalid={invalid}
      onChange={(event) => onChange(event.target.value)}
      className={`${FIELD} ${border}`}
    />
  );
}
