import { Component, type ReactNode } from 'react';

interface ErrorBoundaryProps {
  /** Shown in place of `children` once rendering them threw, or code they load lazily failed to load. */
  readonly fallback: ReactNode;
  /**
   * A value naming what `children` show (the location): when it changes, the boundary tries them
   * again, so moving on in the application leaves a failed screen behind.
   */
  readonly resetKey?: unknown;
  readonly children: ReactNode;
}

interface ErrorBoundaryState {
  readonly failed: boolean;
  /** The `resetKey` the state belongs to. */
  readonly resetKey: unknown;
}

/**
 * Keeps an error in a part of the page from unmounting the whole React root (a blank page until
 * reloaded): only the part inside shows `fallback`. React reports the error itself (console.error);
 * nothing is logged twice here. A class, because only a class can catch a render error.
 */
export class ErrorBoundary extends Component<ErrorBoundaryProps, ErrorBoundaryState> {
  override state: ErrorBoundaryState = { failed: false, resetKey: this.props.resetKey };

  static getDerivedStateFromError(): Partial<ErrorBoundaryState> {
    return { failed: true };
  }

  // In the render that brings the new key, not an update after it: the children replace the
  // fallback in one commit, so whatever the fallback had focused never falls to <body> unnoticed.
  static getDerivedStateFromProps(
    props: ErrorBoundaryProps,
    state: ErrorBoundaryState,
  ): Partial<ErrorBoundaryState> | null {
    return Object.is(props.resetKey, state.resetKey) ? null : { failed: false, resetKey: props.resetKey };
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
