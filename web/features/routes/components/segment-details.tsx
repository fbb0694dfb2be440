/** A segment's page (CONTRACT.md §22): its efforts fastest first, their times over the years, rename and delete. */
import { Link, useNavigate } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import { useConfirm } from '../../../components/confirm-dialog';
import { PageTitle } from '../../../components/page-title';
import { Panel } from '../../../components/panel';
import { notify } from '../../../components/toast/toast-store';
import { t as translate, useT } from '../../../i18n/runtime';
import { ApiError } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useSegment } from '../api/get-segments';
import { useDeleteSegment, useRenameSegment } from '../api/save-segment';
import { EffortsChart, EffortsTable, RenameForm } from './effort-parts';
import { MissingScreen } from './missing-screen';
import { FillingIn } from './segments-list';

export function SegmentDetails({ id }: { id: number }) {
  const t = useT(routesTexts);
  const display = useDisplay();
  const navigate = useNavigate();
  const valid = Number.isSafeInteger(id) && id > 0;
  const segment = useSegment(id, { enabled: valid });
  const rename = useRenameSegment();
  const remove = useDeleteSegment();
  const { confirm, dialog } = useConfirm();
  if (!valid || (segment.error instanceof ApiError && segment.error.status === 404)) {
    return (
      <MissingScreen
        title={t('routes.segmentNotFound.title')}
        body={t('routes.segmentNotFound.body')}
        back={t('routes.segmentNotFound.back')}
        to="/segments"
      />
    );
  }
  if (segment.isError) return <p className="text-danger">{t('routes.segment.loadError')}</p>;
  if (!segment.data) {
    return (
      <p className="text-body-secondary" role="status">
        {t('routes.segment.loading')}
      </p>
    );
  }
  const data = segment.data;
  const onDelete = async () => {
    if (!(await confirm(t('routes.segment.deleteConfirm', { name: data.name })))) return;
    remove.mutate(data.id, {
      onSuccess: () => {
        notify(translate('routes.segment.deleted'), 'success');
        void navigate('/segments');
      },
    });
  };
  return (
    <>
      <PageTitle
        title={data.name}
        actions={
          <>
            <Link to="/segments" className="btn btn-outline-secondary">
              {t('routes.segment.all')}
            </Link>
            <button
              type="button"
              className="btn btn-outline-danger"
              disabled={remove.isPending}
              onClick={() => void onDelete()}
            >
              {t('routes.segment.delete')}
            </button>
          </>
        }
      >
        <span translate="no">{data.name}</span>
        {data.matching ? <FillingIn /> : null}
      </PageTitle>
      <p className="text-body-secondary">
        {t('routes.segment.summary', {
          count: data.effort_count,
          distance: display.formatDistance(data.distance_m / 1000),
          unit: display.labels.distance,
        })}
      </p>
      <RenameForm
        key={data.name}
        name={data.name}
        pending={rename.isPending}
        error={rename.error}
        onRename={(name) => rename.mutateAsync({ id: data.id, name })}
      />
      <Panel title={t('routes.segment.chartTitle')}>
        <EffortsChart efforts={data.efforts} label={t('routes.segment.chartLabel')} />
      </Panel>
      <Panel title={t('routes.segment.effortsTitle')} flush={data.efforts.length > 0}>
        {data.efforts.length > 0 ? (
          <EffortsTable efforts={data.efforts} label={t('routes.segment.effortsLabel')} />
        ) : (
          <p className="mb-0 text-body-secondary">
            {data.matching ? t('routes.segment.noEffortsYet') : t('routes.segment.noEfforts')}
          </p>
        )}
      </Panel>
      {dialog}
    </>
  );
}
