import './footer.css';
import type { TextKey } from '@keycard/contract';
import { lazy, type ReactNode, Suspense, useState } from 'react';
import { useText } from '../text/use-text.ts';
import { LoadingStatus } from '../ui/loading-status.tsx';
import { DataPolicyContent } from './data-policy-content.tsx';
import { HelpContent } from './help-content.tsx';
import { ModalDialog } from './modal-dialog.tsx';

// The imprint (with its licence table) is only loaded when someone opens it. Should its file not
// load, the dialog says so in its body (ModalDialog's error boundary) and the page stays as it is.
const ImprintContent = lazy(() =>
  import('./imprint-content.tsx').then((m) => ({ default: m.ImprintContent })),
);

type FooterDialog = 'help' | 'imprint' | 'dataPolicy';

const DIALOGS: readonly (readonly [FooterDialog, TextKey])[] = [
  ['help', 'helpLabel'],
  ['imprint', 'imprintLabel'],
  ['dataPolicy', 'dataPolicyLabel'],
];

function DialogContent({ dialog }: { readonly dialog: FooterDialog }) {
  if (dialog === 'help') return <HelpContent />;
  if (dialog === 'dataPolicy') return <DataPolicyContent />;
  return (
    <Suspense fallback={<LoadingStatus />}>
      <ImprintContent />
    </Suspense>
  );
}

interface FooterProps {
  /** Page-specific links shown first, e.g. the sign-in page's forgot-password link (SPEC §2). */
  readonly children?: ReactNode;
}

/** SPEC §1: every screen's footer, with the Help, Imprint and Data policy dialogs. */
export function Footer({ children }: FooterProps) {
  const { t } = useText();
  const [open, setOpen] = useState<FooterDialog | null>(null);
  const openLabel = DIALOGS.find(([dialog]) => dialog === open)?.[1];

  return (
    <footer className="footer">
      {children ? <div className="footer__page-links">{children}</div> : null}
      <nav className="footer__nav" aria-label={t('footerNavigationLabel')}>
        <ul className="footer__list">
          {DIALOGS.map(([dialog, label]) => (
            <li key={dialog}>
              <button
                type="button"
                className="footer__button"
                aria-haspopup="dialog"
                onClick={() => setOpen(dialog)}
              >
                {t(label)}
              </button>
            </li>
          ))}
        </ul>
      </nav>
      {open && openLabel ? (
        <ModalDialog title={t(openLabel)} onClose={() => setOpen(null)}>
          <DialogContent dialog={open} />
        </ModalDialog>
      ) : null}
    </footer>
  );
}
