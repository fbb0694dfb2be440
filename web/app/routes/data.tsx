import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { ExportPanel } from '../../features/data/components/export-panel';
import { ImportPanel } from '../../features/data/components/import-panel';

export function Component() {
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title="Your data">Your data</PageTitle>
      <ImportPanel units={units} />
      <hr className="my-4" />
      <ExportPanel />
    </>
  );
}
