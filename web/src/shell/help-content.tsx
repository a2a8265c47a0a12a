import { useText } from '../text/use-text.ts';
import { fillNodes } from '../ui/fill-nodes.tsx';
import { EmailLink, PhoneLink } from './contact-links.tsx';

/** SPEC §1 Help: the provider's phone number and support e-mail address. */
export function HelpContent() {
  const { t } = useText();
  return (
    <>
      <p>{t('helpIntro')}</p>
      <ul className="plain-list">
        <li>{fillNodes(t('usingPhone'), { phone: <PhoneLink phone={t('sitePhone')} /> })}</li>
        <li>{fillNodes(t('usingEmail'), { email: <EmailLink email={t('siteEmail')} /> })}</li>
      </ul>
    </>
  );
}
