import goals from 'virtual:i18n/goals';
import { PageTitle } from '../../components/page-title';
import { useUser } from '../../features/auth/api/get-me';
import { PeriodRuns } from '../../features/entries/components/run-lists';
import { GoalsManager } from '../../features/goals/components/goals-manager';
import { useT } from '../../i18n/runtime';

export function Component() {
  const t = useT(goals);
  const units = useUser()?.units ?? 'km';
  return (
    <>
      <PageTitle title={t('goals.title')}>{t('goals.title')}</PageTitle>
      <GoalsManager units={units} periodRuns={(period) => <PeriodRuns {...period} />} />
    </>
  );
}
