import { useText } from '../text/use-text.ts';

/** A polite live region saying that something is loading. */
export function LoadingStatus() {
  const { t } = useText();
  return (
    <p className="loading-status" role="status">
      {t('loading')}
    </p>
  );
}
