import './modal-dialog.css';
import { type MouseEvent, type ReactNode, useId, useLayoutEffect, useRef } from 'react';
import { useText } from '../text/use-text.ts';
import { ErrorBoundary } from '../ui/error-boundary.tsx';

interface ModalDialogProps {
  /** Heading of the dialog and its accessible name. */
  readonly title: string;
  /** Called once the dialog closed (close button, Escape, or a click on the backdrop). */
  readonly onClose: () => void;
  readonly children: ReactNode;
}

/**
 * A native modal <dialog>, open while mounted: showModal() makes the page behind it inert and moves
 * focus in; Escape closes it natively; on close, focus goes back to the element that opened it.
 * Content that fails shows the something-went-wrong text in its place; the close button still works.
 */
export function ModalDialog({ title, onClose, children }: ModalDialogProps) {
  const { t } = useText();
  const ref = useRef<HTMLDialogElement>(null);
  const opener = useRef<Element | null>(null);
  const titleId = useId();

  // Layout effect: the dialog is modal before the first paint, so focus never rests behind it.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog || dialog.open) return;
    opener.current = document.activeElement;
    dialog.showModal();
  }, []);

  const handleClose = () => {
    onClose();
    if (opener.current instanceof HTMLElement) opener.current.focus();
  };

  // A click on the ::backdrop reaches the <dialog> itself, never one of its children.
  const closeOnBackdrop = (event: MouseEvent<HTMLDialogElement>) => {
    if (event.target === event.currentTarget) event.currentTarget.close();
  };

  return (
    // biome-ignore lint/a11y/useKeyWithClickEvents: Escape already closes a native modal dialog
    <dialog
      ref={ref}
      className="dialog"
      aria-labelledby={titleId}
      onClose={handleClose}
      onClick={closeOnBackdrop}
    >
      <div className="dialog__panel">
        <div className="dialog__header">
          <h2 id={titleId} className="dialog__title">
            {title}
          </h2>
          <button type="button" className="button button--quiet" onClick={() => ref.current?.close()}>
            {t('closeLabel')}
          </button>
        </div>
        <div className="dialog__body">
          {/* Content that fails (a render error, the imprint's code not loading) says so here and
              leaves the page behind the dialog, and what was typed there, as it is. */}
          <ErrorBoundary fallback={<p role="alert">{t('somethingWentWrong')}</p>}>{children}</ErrorBoundary>
        </div>
      </div>
    </dialog>
  );
}
