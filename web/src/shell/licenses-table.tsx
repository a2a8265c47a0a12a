import { useText } from '../text/use-text.ts';
import { LoadingStatus } from '../ui/loading-status.tsx';
import { useLoad } from '../ui/use-load.ts';
import { loadLicenses } from './load-licenses.ts';

/** The open-source notice: every shipped component with its version and licence. */
export function LicensesTable() {
  const { t } = useText();
  const licenses = useLoad(() => loadLicenses(), 'licenses');
  if (licenses.status === 'loading') return <LoadingStatus />;
  if (licenses.status === 'failed') return <p role="alert">{t('somethingWentWrong')}</p>;
  return (
    <table className="components">
      <thead>
        <tr>
          <th scope="col">{t('imprintComponentName')}</th>
          <th scope="col">{t('imprintComponentVersion')}</th>
          <th scope="col">{t('imprintComponentLicense')}</th>
        </tr>
      </thead>
      <tbody>
        {licenses.value.map((component) => (
          <tr key={`${component.name}@${component.version}`}>
            <td>{component.name}</td>
            <td>{component.version}</td>
            <td>{component.license}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
