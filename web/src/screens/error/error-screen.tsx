import './error-screen.css';
import { isErrorReference } from '@keycard/contract';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { fillNodes } from '../../ui/fill-nodes.tsx';

export interface ErrorScreenProps {
  /** The last path segment of /error/{reference}; shown only when it is a reference the service makes. */
  readonly reference: string | null;
}

/**
 * SPEC §2 /error: "We're sorry!" and "Something went wrong.", and for a refused sign-in request the
 * reference of the service's log line, as text a person can select and quote.
 */
export function ErrorScreen({ reference }: ErrorScreenProps) {
  const { t } = useText();
  return (
    <PageFrame>
      <h1>{t('errorTitle')}</h1>
      <p>{t('somethingWentWrong')}</p>
      {isErrorReference(reference) ? (
        <p className="error-reference">
          {fillNodes(t('errorReference'), {
            reference: <code className="error-reference__code">{reference}</code>,
          })}
        </p>
      ) : null}
    </PageFrame>
  );
}
