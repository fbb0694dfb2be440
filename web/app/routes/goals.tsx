import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { PeriodRuns } from '../../features/entries/components/run-lists';
import { GoalsManager } from '../../features/goals/components/goals-manager';

export function Component() {
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title="Goals">Goals</PageTitle>
      <GoalsManager units={units} periodRuns={(period) => <PeriodRuns {...period} />} />
    </>
  );
}
