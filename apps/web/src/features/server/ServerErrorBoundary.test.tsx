import { describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import { ServerErrorBoundary } from './ServerErrorBoundary.tsx';

function Boom(): never {
  throw new Error('boom');
}

describe('ServerErrorBoundary', () => {
  it('shows the render-crash text instead of the broken page', () => {
    const spy = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    render(
      <ServerErrorBoundary message="An error was encountered by the application while rendering this view. Try refreshing the page.">
        <Boom />
      </ServerErrorBoundary>,
    );
    expect(
      screen.getByText(
        'An error was encountered by the application while rendering this view. Try refreshing the page.',
      ),
    ).toBeInTheDocument();
    spy.mockRestore();
  });
});
