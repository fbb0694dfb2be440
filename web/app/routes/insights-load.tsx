import { PageTitle } from '../../components/page-title';
import { LoadPanels } from '../../features/insights/components/load-panels';

export function Component() {
  return (
    <>
      <PageTitle title="Training load">Training load</PageTitle>
      <LoadPanels />
    </>
  );
}
