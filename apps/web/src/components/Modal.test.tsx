import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Modal } from './Modal.tsx';
import { ConfirmationModal } from './ConfirmationModal.tsx';

function Harness(props: { dismissable?: boolean; spinner?: boolean }) {
  const [open, setOpen] = useState(true);
  return (
    <Modal
      visible={open}
      onDismissed={() => setOpen(false)}
      title="Dialog"
      dismissable={props.dismissable}
      showSpinnerOverlay={props.spinner}
    >
      <button type="button">inside</button>
    </Modal>
  );
}

describe('Modal dismissal rules', () => {
  it('closes on Escape', async () => {
    render(<Harness />);
    expect(screen.getByRole('dialog', { name: 'Dialog' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
  it('closes on a background click but not on a click inside', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByText('inside'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    fireEvent.mouseDown(screen.getByTestId('modal-background'));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
  it('closes with the close icon', async () => {
    render(<Harness />);
    await userEvent.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });
  it('a non-dismissable modal ignores Escape and background and has no close icon', async () => {
    render(<Harness dismissable={false} />);
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(screen.getByTestId('modal-background'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Close' })).not.toBeInTheDocument();
  });
  it('cannot be dismissed while the spinner overlay shows', async () => {
    render(<Harness spinner />);
    expect(screen.getByTestId('spinner-overlay')).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    fireEvent.mouseDown(screen.getByTestId('modal-background'));
    expect(screen.getByRole('dialog')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Close' })).toBeDisabled();
  });
  it('moves focus into the dialog', () => {
    render(<Harness />);
    expect(screen.getByRole('dialog').contains(document.activeElement)).toBe(true);
  });
  it('gives the focus back to its opener on close, even when a field inside autofocuses', async () => {
    function Opener() {
      const [open, setOpen] = useState(false);
      return (
        <>
          <button type="button" onClick={() => setOpen(true)}>
            open
          </button>
          <Modal visible={open} onDismissed={() => setOpen(false)} title="Search">
            <input aria-label="term" autoFocus />
          </Modal>
        </>
      );
    }
    render(<Opener />);
    const opener = screen.getByRole('button', { name: 'open' });
    opener.focus();
    await userEvent.keyboard('{Enter}');
    expect(screen.getByLabelText('term')).toHaveFocus();
    await userEvent.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(opener).toHaveFocus();
  });
});

describe('ConfirmationModal', () => {
  it('confirms or cancels', async () => {
    const onConfirmed = vi.fn();
    const onDismissed = vi.fn();
    render(
      <ConfirmationModal
        visible
        title="Delete"
        buttonText="Yes"
        onConfirmed={onConfirmed}
        onDismissed={onDismissed}
      >
        Sure?
      </ConfirmationModal>,
    );
    await userEvent.click(screen.getByRole('button', { name: 'Yes' }));
    expect(onConfirmed).toHaveBeenCalledOnce();
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onDismissed).toHaveBeenCalledOnce();
  });
});
