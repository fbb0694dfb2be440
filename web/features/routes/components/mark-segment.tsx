/**
 * Marking a segment on a run's page (CONTRACT.md §22): its start and end picked on the run's charts
 * (a click each) or typed in the runner's unit, the chosen stretch shaded on the charts and the map,
 * a name, and Enter saves. The new segment answers at once and fills in while the runs are matched.
 */
import { useEffect, useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import routesTexts from 'virtual:i18n/routes';
import { MAX_SEGMENT_M, MIN_SEGMENT_M } from '../../../../core/routes/schemas.js';
import { decimal } from '../../../../core/format.js';
import { distanceIn, distanceToKm, parseDecimal, type Units } from '../../../../core/units.js';
import { FormField } from '../../../components/form/form-field';
import { Panel } from '../../../components/panel';
import { useT } from '../../../i18n/runtime';
import { fieldErrorsOf } from '../../../lib/api-client';
import { useDisplay } from '../../../lib/display';
import { useSegment } from '../api/get-segments';
import { useCreateSegment } from '../api/save-segment';
import { FillingIn, segmentPath } from './segments-list';

export interface MarkedRange {
  start_m: number;
  end_m: number | null;
}

/** A point picked on a chart: the start first, then the end (in either order); a third pick starts again. */
export function pickInto(range: MarkedRange | null, metres: number): MarkedRange {
  const m = Math.round(metres);
  if (!range || range.end_m !== null) return { start_m: m, end_m: null };
  return { start_m: Math.min(range.start_m, m), end_m: Math.max(range.start_m, m) };
}

/** The state the run page shares between this form and the charts and map that show the stretch. */
export function useSegmentMarking() {
  const [open, setOpen] = useState(false);
  const [range, setRange] = useState<MarkedRange | null>(null);
  const marking = open ? { range, onPick: (metres: number) => setRange((current) => pickInto(current, metres)) } : null;
  return { open, setOpen, range, setRange, marking };
}

const metresText = (metres: number, units: Units) => decimal(distanceIn(metres / 1000, units), 2);

function metresOf(text: string, units: Units): number | null {
  const value = parseDecimal(text);
  return value === null ? null : Math.round(distanceToKm(value, units) * 1000);
}

export function MarkSegment({
  entryId,
  lengthM,
  state,
}: {
  entryId: number;
  /** The track's length from its first sample, in metres. */
  lengthM: number;
  state: ReturnType<typeof useSegmentMarking>;
}) {
  const t = useT(routesTexts);
  const { units, labels } = useDisplay();
  const { open, setOpen, range, setRange } = state;
  const create = useCreateSegment();
  const [name, setName] = useState('');
  const [startText, setStartText] = useState('');
  const [endText, setEndText] = useState('');
  const [checked, setChecked] = useState(false);
  const [created, setCreated] = useState<number | null>(null);
  const emitted = useRef<MarkedRange | null>(null);
  const hintId = useId();

  // A pick on a chart writes the fields; what the runner types is not rewritten under the cursor.
  useEffect(() => {
    if (range === emitted.current) return;
    setStartText(range ? metresText(range.start_m, units) : '');
    setEndText(range && range.end_m !== null ? metresText(range.end_m, units) : '');
  }, [range, units]);

  const emit = (start: string, end: string) => {
    const startM = metresOf(start, units);
    const endM = metresOf(end, units);
    const next = startM === null ? null : { start_m: startM, end_m: endM };
    emitted.current = next;
    setRange(next);
  };

  const startM = metresOf(startText, units);
  const endM = metresOf(endText, units);
  const server = fieldErrorsOf(create.error);
  const errors = {
    start: startM === null || startM < 0 || startM > lengthM ? [t('routes.mark.startInvalid')] : server.start_m,
    end:
      endM === null || startM === null
        ? [t('routes.mark.endInvalid')]
        : endM > lengthM
          ? [t('routes.mark.endBeyond')]
          : endM - startM < MIN_SEGMENT_M || endM - startM > MAX_SEGMENT_M
            ? [t('routes.mark.lengthInvalid')]
            : server.end_m,
    name: name.trim() === '' ? [t('routes.mark.nameRequired')] : server.name,
  };
  const localError =
    startM === null ||
    startM < 0 ||
    startM > lengthM ||
    endM === null ||
    endM > lengthM ||
    endM - startM < MIN_SEGMENT_M ||
    endM - startM > MAX_SEGMENT_M ||
    name.trim() === '';

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setChecked(true);
    if (localError) return;
    create.mutate(
      { entry_id: entryId, start_m: startM, end_m: endM, name: name.trim() },
      {
        onSuccess: (segment) => {
          setCreated(segment.id);
          setName('');
          setChecked(false);
          emitted.current = null;
          setRange(null);
          setOpen(false);
        },
      },
    );
  };

  return (
    <Panel title={t('routes.mark.title')}>
      {created !== null ? <CreatedSegment id={created} /> : null}
      {!open ? (
        <button type="button" className="btn btn-outline-primary" onClick={() => setOpen(true)}>
          {t('routes.mark.open')}
        </button>
      ) : (
        <form onSubmit={submit} noValidate aria-label={t('routes.mark.title')}>
          <p id={hintId} className="text-body-secondary">
            {t('routes.mark.hint')}
          </p>
          <div className="row g-2">
            <FormField
              className="col-6 col-md-3 mb-2"
              label={t('routes.mark.start', { unit: labels.distance })}
              value={startText}
              inputMode="decimal"
              aria-describedby={hintId}
              onValueChange={(value) => {
                setStartText(value);
                emit(value, endText);
              }}
              errors={checked ? errors.start : undefined}
            />
            <FormField
              className="col-6 col-md-3 mb-2"
              label={t('routes.mark.end', { unit: labels.distance })}
              value={endText}
              inputMode="decimal"
              onValueChange={(value) => {
                setEndText(value);
                emit(startText, value);
              }}
              errors={checked ? errors.end : undefined}
            />
            <FormField
              className="col-12 col-md-6 mb-2"
              label={t('routes.mark.name')}
              value={name}
              maxLength={100}
              translate="no"
              onValueChange={setName}
              errors={checked ? errors.name : undefined}
            />
          </div>
          {create.isError && !server.name && !server.start_m && !server.end_m ? (
            <p className="text-danger" role="alert">
              {create.error.message}
            </p>
          ) : null}
          <div className="d-flex gap-2">
            <button type="submit" className="btn btn-primary" disabled={create.isPending}>
              {t('routes.mark.save')}
            </button>
            <button
              type="button"
              className="btn btn-outline-secondary"
              onClick={() => {
                setOpen(false);
                setRange(null);
                setChecked(false);
              }}
            >
              {t('routes.mark.cancel')}
            </button>
          </div>
        </form>
      )}
    </Panel>
  );
}

/** The segment just marked: filling in while the runs are matched, then its efforts. */
function CreatedSegment({ id }: { id: number }) {
  const t = useT(routesTexts);
  const segment = useSegment(id);
  if (!segment.data) return null;
  return (
    <p>
      <Link to={segmentPath(id)} translate="no">
        {segment.data.name}
      </Link>
      {segment.data.matching ? (
        <FillingIn />
      ) : (
        <span className="ms-2" role="status">
          {t('routes.mark.ready', { count: segment.data.effort_count })}
        </span>
      )}
    </p>
  );
}
