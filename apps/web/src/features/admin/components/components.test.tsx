import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { useLocation } from 'react-router';
import { renderAt } from '../../../test/render.tsx';
import { HttpError } from '../../../api/errors.ts';
import { listParams } from '../../../api/application/http.ts';
import { DataTable, type Column } from './DataTable.tsx';
import { useListParams } from './useListParams.ts';
import { MemoryRouter } from 'react-router';

function Probe() {
  const list = useListParams({ filters: ['node_id', 'status'] });
  const location = useLocation();
  return (
    <div>
      <output data-testid="state">
        {JSON.stringify({ page: list.page, search: list.search, sort: list.sort, filters: list.filters })}
      </output>
      <output data-testid="address">{location.search}</output>
      <output data-testid="href3">{list.pageHref(3)}</output>
      <output data-testid="params">{JSON.stringify(listParams(list.query))}</output>
      <button onClick={() => list.setSearch(' minecraft ')}>search</button>
      <button onClick={() => list.toggleSort('name')}>sort name</button>
      <button onClick={() => list.setFilter('status', 'suspended')}>filter</button>
      <button onClick={() => list.setPage(4)}>page 4</button>
    </div>
  );
}

const state = () => JSON.parse(screen.getByTestId('state').textContent) as Record<string, unknown>;

describe('useListParams', () => {
  it('reads page, search, sort and only the declared filters from the address', () => {
    renderAt(<Probe />, { path: '/admin/servers?page=3&search=ab&sort=-name&node_id=2&bogus=1' });
    expect(state()).toEqual({ page: 3, search: 'ab', sort: '-name', filters: { node_id: '2', status: '' } });
    expect(JSON.parse(screen.getByTestId('params').textContent)).toEqual({
      page: 3,
      search: 'ab',
      sort: '-name',
      'filter[node_id]': '2',
    });
  });

  it('treats a bad page number as page 1', () => {
    renderAt(<Probe />, { path: '/admin/users?page=-4' });
    expect(state()).toMatchObject({ page: 1 });
  });

  it('goes back to page 1 when the search, sort or a filter changes, and keeps the rest', () => {
    renderAt(<Probe />, { path: '/admin/servers?page=3&node_id=2' });
    fireEvent.click(screen.getByText('search'));
    expect(state()).toMatchObject({ page: 1, search: 'minecraft', filters: { node_id: '2', status: '' } });
    fireEvent.click(screen.getByText('page 4'));
    expect(state()).toMatchObject({ page: 4, search: 'minecraft' });
    fireEvent.click(screen.getByText('sort name'));
    expect(state()).toMatchObject({ page: 1, sort: 'name' });
    fireEvent.click(screen.getByText('sort name'));
    expect(state()).toMatchObject({ sort: '-name' });
    fireEvent.click(screen.getByText('filter'));
    expect(state()).toMatchObject({ filters: { node_id: '2', status: 'suspended' } });
    expect(screen.getByTestId('address').textContent).toBe(
      '?node_id=2&search=minecraft&sort=-name&status=suspended',
    );
  });

  it('builds page links that keep the search, sort and filters', () => {
    renderAt(<Probe />, { path: '/admin/servers?search=ab&sort=name&page=2' });
    expect(screen.getByTestId('href3').textContent).toBe('?search=ab&sort=name&page=3');
  });
});

interface Row {
  id: number;
  name: string;
  email: string;
}
const columns: Column<Row>[] = [
  { id: 'name', header: 'Name', sortKey: 'name', cell: (r) => r.name },
  { id: 'email', header: 'Email', cell: (r) => r.email },
];

function table(props: Partial<Parameters<typeof DataTable<Row>>[0]>) {
  return render(
    <MemoryRouter>
      <DataTable<Row>
        label="People"
        columns={columns}
        rows={undefined}
        rowKey={(r) => r.id}
        emptyText="Nobody here yet."
        {...props}
      />
    </MemoryRouter>,
  );
}

describe('DataTable', () => {
  it('marks the sorted column with aria-sort and asks for a sort when its header is clicked', () => {
    const onSort = vi.fn();
    table({ rows: [{ id: 1, name: 'Ann', email: 'ann@example.com' }], sort: '-name', onSort });
    const header = screen.getByRole('columnheader', { name: /Name/ });
    expect(header).toHaveAttribute('aria-sort', 'descending');
    // A column without a sort key is plain text.
    expect(within(screen.getByRole('columnheader', { name: 'Email' })).queryByRole('button')).toBeNull();
    fireEvent.click(within(header).getByRole('button'));
    expect(onSort).toHaveBeenCalledWith('name');
  });

  it('says ascending and none too', () => {
    const { rerender } = table({ rows: [], sort: 'name', onSort: () => undefined });
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'ascending');
    rerender(
      <MemoryRouter>
        <DataTable<Row>
          label="People"
          columns={columns}
          rows={[]}
          rowKey={(r) => r.id}
          emptyText="x"
          sort=""
          onSort={() => undefined}
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole('columnheader', { name: /Name/ })).toHaveAttribute('aria-sort', 'none');
  });

  it('shows placeholder rows while loading, and no empty text', () => {
    table({ isLoading: true });
    expect(screen.getAllByTestId('skeleton-row')).toHaveLength(5);
    expect(screen.getByRole('table')).toHaveAttribute('aria-busy', 'true');
    expect(screen.queryByText('Nobody here yet.')).toBeNull();
  });

  it('says so when the list is empty', () => {
    table({ rows: [] });
    expect(screen.getByText('Nobody here yet.')).toBeInTheDocument();
    expect(screen.queryByTestId('skeleton-row')).toBeNull();
  });

  it('links the first cell to the row page', () => {
    table({
      rows: [{ id: 7, name: 'Ann', email: 'ann@example.com' }],
      rowHref: (r) => `/admin/users/view/${r.id}`,
    });
    expect(screen.getByRole('link', { name: 'Ann' })).toHaveAttribute('href', '/admin/users/view/7');
  });

  it('puts the error in words with a retry button', () => {
    const onRetry = vi.fn();
    table({
      error: new HttpError('Request failed with status code 500', 500, {
        errors: [{ code: 'HttpException', status: '500', detail: 'The database is not reachable.' }],
      }),
      onRetry,
    });
    expect(screen.getByRole('alert')).toHaveTextContent('The database is not reachable.');
    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(onRetry).toHaveBeenCalled();
  });
});
