import { StrictMode } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router';
import { useGlobalStore } from '../../../../app/store.ts';
import { renderAt } from '../../../../test/render.tsx';
import { AdminArea } from '../../AdminArea.tsx';
import { ADMIN_FLASH } from '../../components/index.ts';
import { signInForTest, wireList } from '../../testing.ts';
import { SERVER_PATH, fakeApi, wireServer } from './testing.tsx';

beforeEach(() => signInForTest(true));
afterEach(() => vi.unstubAllGlobals());

const CREATED = 'Server Lobby created. It is installing now.';

/** The whole admin area (its layout included) at `path`, in StrictMode as the app runs it. */
function renderAdmin(path: string) {
  return renderAt(
    <StrictMode>
      <Routes>
        <Route path="/admin/*" element={<AdminArea />} />
      </Routes>
    </StrictMode>,
    { path },
  );
}

describe('admin messages brought to a page', () => {
  it('shows "created, installing now" on the new server’s page once: gone after moving to another tab, and not back', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      'GET /api/application/nodes/1/allocations': { status: 200, body: wireList('allocation', []) },
    });
    // As the new server form leaves it before going to the server's page.
    useGlobalStore.getState().addFlash({ key: ADMIN_FLASH, type: 'success', message: CREATED });
    renderAdmin('/admin/servers/view/7');
    expect(await screen.findByText(CREATED)).toBeInTheDocument();

    await userEvent.click(await screen.findByRole('link', { name: 'Build' }));
    expect(await screen.findByLabelText('Memory (MiB)')).toBeInTheDocument();
    expect(screen.queryByText(CREATED)).not.toBeInTheDocument();

    await userEvent.click(screen.getByRole('link', { name: 'About' }));
    await screen.findByRole('link', { name: 'About', current: 'page' });
    expect(screen.queryByText(CREATED)).not.toBeInTheDocument();
    expect(useGlobalStore.getState().flashes).toEqual([]);
  });

  it('keeps a message set just before leaving for the page it leads to (deleted → servers list)', async () => {
    fakeApi({
      [`GET ${SERVER_PATH}`]: { status: 200, body: wireServer() },
      [`DELETE ${SERVER_PATH}`]: { status: 204 },
      'GET /api/application/servers': { status: 200, body: wireList('server', []) },
    });
    const { router } = renderAdmin('/admin/servers/view/7/manage');
    await userEvent.click(await screen.findByRole('button', { name: 'Delete server' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete Lobby?' });
    await userEvent.type(within(dialog).getByLabelText("Type the server's name to confirm"), 'Lobby');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Yes, delete Lobby' }));

    expect(await screen.findByText('The server Lobby was deleted.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/admin/servers');
  });
});
