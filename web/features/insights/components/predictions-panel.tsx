import { Link } from 'react-router';
import { Panel } from '../../../components/panel';
import { useDisplay } from '../../../lib/display';
import { usePredictions } from '../api/get-predictions';
import { runPagePath } from '../../../lib/run-paths';
import { distanceLabel } from './format';

/** Race times predicted from the best run of the last 180 days, two ways side by side. */
export function PredictionsPanel() {
  const { data: predictions, isError, isPending } = usePredictions();
  const display = useDisplay();
  if (isError) return <p className="text-danger">The predictions could not be loaded.</p>;
  if (isPending) return null;
  return (
    <Panel title="Race predictions">
      {predictions === null ? (
        <p className="mb-0 text-body-secondary">Predictions need a run of at least 3 km in the last 180 days.</p>
      ) : (
        <>
          <p>
            {predictions.source.kind === 'best_effort'
              ? 'From the fastest stretch of your run of '
              : 'From your run of '}
            <Link
              to={
                predictions.source.kind === 'best_effort'
                  ? `${runPagePath(predictions.source.entry_id)}?effort=${predictions.source.key}`
                  : runPagePath(predictions.source.entry_id)
              }
            >
              {display.formatDate(predictions.source.date)}: {display.runDistance(predictions.source.distance)}{' '}
              {display.labels.distance} in {predictions.source.time}
            </Link>{' '}
            (VDOT {predictions.source.vdot.toFixed(1)}), your best of the last 180 days.
          </p>
          <div>
            <table className="table table-sm align-middle">
              <caption className="visually-hidden">Predicted race times</caption>
              <thead>
                <tr>
                  <th scope="col">Race</th>
                  <th scope="col">Riegel</th>
                  <th scope="col">VDOT</th>
                </tr>
              </thead>
              <tbody>
                {predictions.races.map((race) => (
                  <tr key={race.key}>
                    <th scope="row">{distanceLabel(race.key)}</th>
                    <td>{race.riegel_time}</td>
                    <td>{race.vdot_time}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          <ul className="small text-body-secondary mb-0">
            <li>
              <strong>Riegel</strong>: your time x (race distance / run distance)<sup>1.06</sup>, a fixed slowdown as
              the distance grows.
            </li>
            <li>
              <strong>VDOT</strong> (Daniels and Gilbert): the oxygen uptake your run implies; each race time is the one
              that needs the same VDOT.
            </li>
          </ul>
        </>
      )}
    </Panel>
  );
}
