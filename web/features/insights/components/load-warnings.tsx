import insights from 'virtual:i18n/insights';
import { ACWR_LIMIT, MONOTONY_LIMIT, RAMP_LIMIT, type Load, type LoadWarning } from '../../../../core/insights.js';
import { t, useT } from '../../../i18n/runtime';
import { useLoad } from '../api/get-load';
import { showRatio } from './format';

/** Each warning in a sentence that says what was measured and where the risk starts. */
export function warningText(warning: LoadWarning, load: Load): string {
  switch (warning) {
    case 'acwr_high':
      return t('insights.warnings.acwrHigh', { acwr: showRatio(load.acwr), limit: ACWR_LIMIT });
    case 'ramp_high':
      return t('insights.warnings.rampHigh', {
        ramp: showRatio(load.ramp),
        percent: Math.round((RAMP_LIMIT - 1) * 100),
      });
    case 'monotony_high':
      return t('insights.warnings.monotonyHigh', { monotony: showRatio(load.monotony), limit: MONOTONY_LIMIT });
  }
}

export function LoadWarnings({ load }: { load: Load }) {
  useT(insights);
  if (load.warnings.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status">
      <h2 className="h6">{t('insights.warnings.title', { count: load.warnings.length })}</h2>
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
