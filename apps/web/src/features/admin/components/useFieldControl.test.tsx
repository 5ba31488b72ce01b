import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useForm } from 'react-hook-form';
import { problemsResolver } from './problemsResolver.ts';
import { useFieldControl } from './useFieldControl.ts';

interface Values {
  title: string;
  tags: string[];
}

const resolver = problemsResolver<Values>((v) => ({
  title: v.title === '' ? 'Enter a title.' : undefined,
  tags: v.tags.length === 0 ? 'Pick a tag.' : undefined,
}));

/** A form whose two fields are custom inputs fed by useFieldControl (as <Controller> would). */
function TagsForm({ onSave }: { onSave: (values: Values) => void }) {
  const form = useForm<Values>({ resolver, defaultValues: { title: '', tags: [] } });
  const tags = useFieldControl(form, 'tags');
  const title = useFieldControl(form, 'title');
  return (
    <form noValidate onSubmit={form.handleSubmit(onSave)}>
      <button type="button" ref={tags.ref} onClick={() => tags.onChange([...tags.value, 'pvp'])}>
        Add pvp ({tags.value.join(', ')})
      </button>
      {tags.error && <p>{tags.error}</p>}
      <label>
        Title
        <input
          ref={title.ref}
          value={title.value}
          onBlur={title.onBlur}
          onChange={(event) => title.onChange(event.target.value)}
        />
      </label>
      {title.error && <p>{title.error}</p>}
      <button type="submit">Save</button>
    </form>
  );
}

describe('useFieldControl', () => {
  it('shows the field’s problem, focuses the first field with one, and checks again on change', async () => {
    const saved: Values[] = [];
    render(<TagsForm onSave={(values) => saved.push(values)} />);
    await userEvent.click(screen.getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Pick a tag.')).toBeInTheDocument();
    expect(screen.getByText('Enter a title.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: /Add pvp/ })).toHaveFocus();
    expect(saved).toEqual([]);

    await userEvent.click(screen.getByRole('button', { name: /Add pvp/ }));
    expect(await screen.findByRole('button', { name: 'Add pvp (pvp)' })).toBeInTheDocument();
    expect(screen.queryByText('Pick a tag.')).not.toBeInTheDocument();
    await userEvent.type(screen.getByLabelText('Title'), 'Arena');
    expect(screen.queryByText('Enter a title.')).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(saved).toEqual([{ title: 'Arena', tags: ['pvp'] }]);
  });
});
