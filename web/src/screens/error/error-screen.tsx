import './error-screen.css';
import { ERROR_REASON_PARAM, isErrorReference, UNAVAILABLE_REASON } from '@keycard/contract';
import { useLocation } from '../../routing/navigation.tsx';
import { PageFrame } from '../../shell/page-frame.tsx';
import { useText } from '../../text/use-text.ts';
import { fillNodes } from '../../ui/fill-nodes.tsx';

export interface ErrorScreenProps {
  /** The last path segment of /error/{reference}; shown only when it is a reference the service makes. */
  readonly reference: string | null;
}

/**
 * SPEC §2 /error: "We're sorry!" and "Something went wrong.", and for a refused sign-in request the
 * reference of the service's log line, as text a person can select and quote. When the service sent
 * the person here because its database is unavailable (?reason=unavailable), it says so: trying again
 * in a few minutes will help, where "something went wrong" alone would not tell.
 */
export function ErrorScreen({ reference }: ErrorScreenProps) {
  const { t } = useText();
  const { search } = useLocation();
  const unavailable = new URLSearchParams(search).get(ERROR_REASON_PARAM) === UNAVAILABLE_REASON;
  return (
    <PageFrame>
      <h1>{t('errorTitle')}</h1>
      <p>{t('somethingWentWrong')}</p>
      {unavailable ? <p>{t('temporarilyUnavailable')}</p> : null}
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
