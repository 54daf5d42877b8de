import { Component, type ComponentChildren } from 'preact';
import { ErrorMessage } from './ui';
import { messageOf } from './api';

/**
 * A page that fails to render (or whose code fails to load, such as the map's after a new
 * version was deployed) says so in words instead of leaving the window blank.
 */
export class ErrorBoundary extends Component<{ children: ComponentChildren }, { error: unknown }> {
  override state = { error: null as unknown };

  override componentDidCatch(error: unknown): void {
    this.setState({ error });
  }

  override render() {
    if (this.state.error === null) return this.props.children;
    return (
      <>
        <h1 tabIndex={-1}>This page could not be shown</h1>
        <ErrorMessage
          error={`${messageOf(this.state.error)}. Reload the page to load the latest version.`}
        />
      </>
    );
  }
}
