import common from 'virtual:i18n/common';
import { useT } from '../i18n/runtime';

/** The Back button of a detail or form screen. */
export function BackButton({ onClick }: { onClick: () => void }) {
  const t = useT(common);
  return (
    <button type="button" className="btn btn-outline-secondary" onClick={onClick}>
      {t('common.back')}
    </button>
  );
}
