import { act } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Footer } from '../app/Footer.tsx';
import { ProgressBar } from '../app/ProgressBar.tsx';
import { useGlobalStore } from '../app/store.ts';
import { FlashMessageRender } from '../app/FlashMessageRender.tsx';
import { CopyOnClick } from './CopyOnClick.tsx';
import { MessageBox } from './MessageBox.tsx';
import { NotFoundScreen, ScreenBlock } from './ScreenBlock.tsx';

afterEach(() => {
  vi.useRealTimers();
  useGlobalStore.setState({ flashes: [], progress: undefined, progressContinuous: false });
});

describe('Footer', () => {
  it('shows 2015 - the current year', () => {
    render(<Footer now={new Date(2031, 5, 1)} />);
    expect(screen.getByText(/2015 - 2031/)).toBeInTheDocument();
  });
});

describe('MessageBox', () => {
  it('renders each type with its own colour and an optional title', () => {
    const { container } = render(
      <>
        {(['error', 'info', 'success', 'warning'] as const).map((type) => (
          <MessageBox key={type} type={type} title={type === 'error' ? 'Error' : undefined}>
            {type} text
          </MessageBox>
        ))}
      </>,
    );
    const boxes = container.querySelectorAll('[data-type]');
    expect(boxes).toHaveLength(4);
    expect(new Set([...boxes].map((b) => b.className)).size).toBe(4);
    expect(screen.getByText('Error')).toBeInTheDocument();
  });
});

describe('FlashMessageRender', () => {
  it('shows the flashes of its key only', () => {
    act(() => {
      useGlobalStore
        .getState()
        .addFlash({ key: 'account:email', type: 'success', title: 'Success', message: 'mail ok' });
      useGlobalStore
        .getState()
        .addFlash({ key: 'account:password', type: 'error', title: 'Error', message: 'pw bad' });
    });
    render(<FlashMessageRender byKey="account:email" />);
    expect(screen.getByText('mail ok')).toBeInTheDocument();
    expect(screen.queryByText('pw bad')).not.toBeInTheDocument();
    act(() => {
      useGlobalStore.getState().clearFlashes('account:email');
    });
    expect(screen.queryByText('mail ok')).not.toBeInTheDocument();
  });
});

describe('error pages', () => {
  it('defaults to Something went wrong with a retry action', async () => {
    const retry = vi.fn();
    render(<ScreenBlock message="It broke." onRetry={retry} />);
    expect(screen.getByRole('heading', { name: 'Something went wrong' })).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Server down illustration' })).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(retry).toHaveBeenCalled();
  });
  it('404 page', () => {
    render(<NotFoundScreen />);
    expect(screen.getByRole('heading', { name: '404' })).toBeInTheDocument();
    expect(screen.getByText('The requested resource was not found.')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Not found illustration' })).toBeInTheDocument();
  });
});

describe('CopyOnClick', () => {
  it('shows the notice for 2500 ms', async () => {
    const writeText = vi.fn(() => Promise.resolve());
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    render(<CopyOnClick text="abc123">copy me</CopyOnClick>);
    vi.useFakeTimers();
    await act(async () => {
      screen.getByRole('button', { name: 'copy me' }).click();
      await Promise.resolve();
    });
    expect(writeText).toHaveBeenCalledWith('abc123');
    expect(screen.getByText('Copied "abc123" to clipboard.')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(2499);
    });
    expect(screen.getByText('Copied "abc123" to clipboard.')).toBeInTheDocument();
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(screen.queryByText('Copied "abc123" to clipboard.')).not.toBeInTheDocument();
  });
});

describe('ProgressBar', () => {
  it('runs continuously up to 90 and clears 500 ms after 100', () => {
    vi.useFakeTimers();
    render(<ProgressBar />);
    const bar = screen.getByTestId('progress-bar');
    act(() => {
      useGlobalStore.getState().setProgress(25);
      useGlobalStore.getState().setProgressContinuous(true);
    });
    act(() => {
      vi.advanceTimersByTime(500);
    });
    const after = Number(bar.dataset.progress);
    expect(after).toBeGreaterThanOrEqual(26);
    expect(after).toBeLessThanOrEqual(30);
    act(() => {
      vi.advanceTimersByTime(500 * 100);
    });
    expect(bar.dataset.progress).toBe('90');
    act(() => {
      useGlobalStore.getState().setProgressContinuous(false);
      useGlobalStore.getState().setProgress(100);
    });
    act(() => {
      vi.advanceTimersByTime(499);
    });
    expect(bar.dataset.progress).toBe('100');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(bar.dataset.progress).toBe('');
  });
});
