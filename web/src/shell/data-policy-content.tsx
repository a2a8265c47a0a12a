import { DATA_POLICY_DATE } from '@keycard/contract';
import { useText } from '../text/use-text.ts';
import { fillNodes } from '../ui/fill-nodes.tsx';
import { LoadingStatus } from '../ui/loading-status.tsx';
import { useLoad } from '../ui/use-load.ts';
import { dataPolicyLanguage, loadDataPolicy } from './load-data-policy.ts';

/**
 * SPEC §1 Data policy: title, date and sections in the browser's language. The page's own texts may
 * be in another (a relying party's ui_locales), so the policy's title and sections name theirs, and a
 * screen reader reads them with the right voice.
 */
export function DataPolicyContent({
  browserLanguage = navigator.language,
}: {
  readonly browserLanguage?: string;
}) {
  const { t } = useText();
  const policy = useLoad(() => loadDataPolicy(browserLanguage), browserLanguage);
  if (policy.status === 'loading') return <LoadingStatus />;
  if (policy.status === 'failed') return <p role="alert">{t('somethingWentWrong')}</p>;
  const { title, dated, sections } = policy.value;
  const language = dataPolicyLanguage(browserLanguage);
  return (
    <article>
      <h3 lang={language}>{title}</h3>
      <p>
        {fillNodes(t('dataPolicyDated'), {
          date: <time dateTime={DATA_POLICY_DATE.split('.').reverse().join('-')}>{dated}</time>,
        })}
      </p>
      {sections.map((section) => (
        <section key={section.heading} lang={language}>
          <h4>{section.heading}</h4>
          {section.paragraphs.map((paragraph) => (
            <p key={paragraph}>{paragraph}</p>
          ))}
        </section>
      ))}
    </article>
  );
}
