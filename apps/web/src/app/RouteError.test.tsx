import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { ChunkLoadError } from '../lib/chunk.ts';
import { RouteError } from './RouteError.tsx';

function renderThrowing(error: unknown) {
  const router = createMemoryRouter([
    {
      path: '/',
      errorElement: <RouteError />,
      loader: () => {
        throw error;
      },
      element: <p>never</p>,
    },
  ]);
  render(<RouterProvider router={router} />);
}

describe('RouteError', () => {
  it('explains a chunk that timed out and offers a reload', async () => {
    renderThrowing(new ChunkLoadError('timeout', 'Loading chunk timed out after 120000ms'));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByText(/took too long to load/)).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
  });
  it('explains a missing chunk', async () => {
    renderThrowing(new ChunkLoadError('missing', 'Failed to fetch dynamically imported module'));
    expect(await screen.findByText(/could not be found on the server/)).toBeInTheDocument();
  });
  it('shows the generic error page for anything else', async () => {
    renderThrowing(new Error('boom'));
    expect(await screen.findByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeInTheDocument();
  });
});
