import { Component, type ErrorInfo, type ReactNode } from 'react';
import { ScreenBlock } from '../components/ScreenBlock.tsx';

/** Last line of defence around the whole app. */
export class ErrorBoundary extends Component<{ children: ReactNode }, { error: Error | null }> {
  override state = { error: null as Error | null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  override render() {
    if (this.state.error) {
      return <ScreenBlock message={this.state.error.message} onRetry={() => window.location.reload()} />;
    }
    return this.props.children;
  }
}
