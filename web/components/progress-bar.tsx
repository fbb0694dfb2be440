/** Each tone's class, named whole (scripts/bootstrap-in-use.ts keeps only the classes the code names). */
const TONES = {
  primary: 'bg-primary',
  success: 'bg-success',
  warning: 'bg-warning',
  danger: 'bg-danger',
  secondary: 'bg-secondary',
} as const;

/**
 * A labelled progress bar (Bootstrap's): `value` of `max`, with the text a screen reader
 * announces. Past the maximum it stays full and takes the `over` colour.
 */
export function ProgressBar({
  value,
  max,
  label,
  valueText,
  tone = 'primary',
}: {
  value: number;
  max: number;
  /** What the bar measures, e.g. "Pegasus 40 distance". */
  label: string;
  /** The value in words, e.g. "512 of 700 km". */
  valueText: string;
  tone?: keyof typeof TONES;
}) {
  const percent = max > 0 ? Math.min(100, Math.max(0, (value / max) * 100)) : 0;
  return (
    <div
      className="progress"
      role="progressbar"
      aria-label={label}
      aria-valuenow={Math.round(percent)}
      aria-valuemin={0}
      aria-valuemax={100}
      aria-valuetext={valueText}
    >
      <div className={`progress-bar ${TONES[tone]}`} style={{ width: `${percent}%` }} />
    </div>
  );
}
