import { ACWR_LIMIT, MONOTONY_LIMIT, RAMP_LIMIT, type Load, type LoadWarning } from '../../../../core/insights.js';
import { useLoad } from '../api/get-load';
import { showRatio } from './format';

/** Each warning in a sentence that says what was measured and where the risk starts. */
export function warningText(warning: LoadWarning, load: Load): string {
  switch (warning) {
    case 'acwr_high':
      return `Your load of the last 7 days is ${showRatio(load.acwr)}x your weekly average of the last 28 days: injury risk rises above ${ACWR_LIMIT}.`;
    case 'ramp_high':
      return `This week's distance (Monday to today) is ${showRatio(load.ramp)}x the average of the 4 weeks before: building by more than ${Math.round((RAMP_LIMIT - 1) * 100)}% a week raises the risk of injury.`;
    case 'monotony_high':
      return `Your last 7 days were much alike (monotony ${showRatio(load.monotony)}): above ${MONOTONY_LIMIT}, mix in easier and rest days to lower the risk of illness and staleness.`;
  }
}

export function LoadWarnings({ load }: { load: Load }) {
  if (load.warnings.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status">
      <h2 className="h6">Training load warning{load.warnings.length > 1 ? 's' : ''}</h2>
      <ul className="mb-0">
        {load.warnings.map((w) => (
          <li key={w}>{warningText(w, load)}</li>
        ))}
      </ul>
    </div>
  );
}

/** Today's training load warnings, if any (the dashboard). */
export function TodayLoadWarnings() {
  const { data: load } = useLoad();
  return load ? <LoadWarnings load={load} /> : null;
}
