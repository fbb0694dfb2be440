import { Link } from 'react-router';
import common from 'virtual:i18n/common';
import { useT } from '../i18n/runtime';
import { PencilIcon } from './icons';

/** The edit pencil of a row: a small outlined link whose name says what it edits. */
export function EditLink({ to, label, className = '' }: { to: string; label: string; className?: string }) {
  const t = useT(common);
  return (
    <Link to={to} className={`btn btn-sm btn-outline-primary ${className}`} aria-label={label} title={t('common.edit')}>
      <PencilIcon />
    </Link>
  );
}
