import { Component, type ReactNode } from 'react';
import { MessageBox } from '../../components/MessageBox.tsx';

/** Keeps a crash in one server page from taking the whole app down (spec 001 §8 "Render crash"). */
export class ServerErrorBoundary extends Component<
  { message: string; children: ReactNode },
  { failed: boolean }
> {
  override state = { failed: false };

  static getDerivedStateFromError() {
    return { failed: true };
  }

  override componentDidCatch(error: Error) {
    console.error(error);
  }

  override render() {
    if (this.state.failed) return <MessageBox type="error">{this.props.message}</MessageBox>;
    return this.props.children;
  }
}
