import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import type { ServerEggVariable } from '../../../api/startup.ts';
import { FlashMessageRender } from '../../../app/FlashMessageRender.tsx';
import { useGlobalStore } from '../../../app/store.ts';
import { can } from '../../../lib/shared.ts';
import { useServerStore } from '../store.ts';
import { variableFlashKey } from './flash.ts';
import { SaveIndicator } from './SaveIndicator.tsx';
import { useVariableEditor } from './useVariableEditor.ts';
import { VariableInput } from './VariableInput.tsx';
import { variableInputKind } from './variableInput.ts';

/**
 * One startup variable (spec 001 §5): name, field, description and environment variable name.
 * Editable only with startup.update and when the egg lets users change it; otherwise the field is
 * read-only and carries a 'Read Only' badge.
 */
export function VariableBox({ variable }: { variable: ServerEggVariable }) {
  const { t } = useTranslation('startup');
  const mayUpdate = useServerStore((s) => can(s.permissions, 'startup.update'));
  const editable = mayUpdate && variable.isEditable;
  const { value, state, change } = useVariableEditor(variable, editable);
  const flashKey = variableFlashKey(variable.envVariable);
  const failed = useGlobalStore((s) => s.flashes.some((f) => f.key === flashKey));
  const id = useId();
  const kind = variableInputKind(variable.rules);

  return (
    <section
      data-testid={`variable-${variable.envVariable}`}
      className="flex flex-col gap-3 rounded-lg border border-zinc-800 bg-zinc-900/80 p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 className="min-w-0 text-sm font-semibold break-words text-zinc-100">
          <label htmlFor={`${id}-field`}>{variable.name}</label>
        </h3>
        <div className="flex items-center gap-2">
          <SaveIndicator state={state} />
          {!editable && (
            <span className="rounded bg-zinc-700 px-2 py-0.5 text-xs font-semibold tracking-wide text-zinc-200 uppercase">
              {t('read_only')}
            </span>
          )}
        </div>
      </div>
      <VariableInput
        id={`${id}-field`}
        kind={kind}
        value={value}
        placeholder={variable.defaultValue}
        readOnly={!editable}
        invalid={failed}
        describedBy={`${id}-description ${editable ? '' : `${id}-lock `}${id}-env`}
        onChange={change}
      />
      <FlashMessageRender byKey={flashKey} />
      <p id={`${id}-description`} className="text-sm text-zinc-400">
        {variable.description}
      </p>
      {!editable && (
        <p id={`${id}-lock`} className="text-xs text-zinc-500">
          {mayUpdate ? t('locked_by_egg') : t('locked_by_permission')}
        </p>
      )}
      <p id={`${id}-env`} className="mt-auto text-xs text-zinc-500">
        {t('env_variable')}{' '}
        <code className="rounded bg-zinc-800 px-1.5 py-0.5 font-mono text-zinc-300">
          {variable.envVariable}
        </code>
      </p>
    </section>
  );
}
