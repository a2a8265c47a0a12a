import type { SiteTextKey, TextKey } from '@keycard/contract';
import type { ReactNode } from 'react';
import { safeTarget } from '../routing/link-targets.ts';
import { useText } from '../text/use-text.ts';
import { EmailLink, PhoneLink } from './contact-links.tsx';
import { LicensesTable } from './licenses-table.tsx';

/** SPEC §1 Imprint fields: the label key and the site value shown under it. */
const FIELDS: readonly (readonly [TextKey, SiteTextKey])[] = [
  ['imprintCompany', 'siteCompany'],
  ['imprintAddress', 'siteAddress'],
  ['imprintLegalRepresentative', 'siteLegalRepresentative'],
  ['imprintCommercialRegister', 'siteCommercialRegister'],
  ['imprintVat', 'siteVat'],
  ['imprintTelephone', 'siteTelephone'],
  ['imprintFax', 'siteFax'],
  ['imprintEmail', 'siteEmail'],
  ['imprintWeb', 'siteWeb'],
  ['imprintDataProtectionOfficial', 'siteDataProtectionOfficial'],
];

function siteValue(site: SiteTextKey, value: string): ReactNode {
  if (site === 'siteTelephone') return <PhoneLink phone={value} />;
  if (site === 'siteEmail') return <EmailLink email={value} />;
  if (site === 'siteWeb' && safeTarget(value) === value) return <a href={value}>{value}</a>;
  return value;
}

/** SPEC §1 Imprint: company details, the legal hint with this host, and the open-source notice. */
export function ImprintContent() {
  const { t } = useText();
  return (
    <>
      <p>{t('imprintIntroduction1')}</p>
      <p>{t('imprintIntroduction2')}</p>
      <dl className="facts">
        {FIELDS.map(([label, site]) => (
          <div key={site} className="facts__row">
            <dt>{t(label)}</dt>
            <dd>{siteValue(site, t(site))}</dd>
          </div>
        ))}
      </dl>
      <p>{t('imprintLegalHint', { host: window.location.host })}</p>
      <h3>{t('imprintUsedComponents')}</h3>
      <p>{t('imprintUsedComponentsIntro')}</p>
      <LicensesTable />
    </>
  );
}
