import { Link } from 'react-router';
import type { Units } from '../../../../core/units.js';
import { useShoes } from '../api/get-shoes';
import { formatShoeDistance } from './shoe-format';

/** The dashboard's warning for each shoe in use that has run past its limit. */
export function ShoeAlerts({ units }: { units: Units }) {
  const worn = (useShoes().data ?? []).filter((shoe) => shoe.over_limit && !shoe.retired);
  if (worn.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status">
      <ul className="list-unstyled mb-1">
        {worn.map((shoe) => (
          <li key={shoe.id}>
            <strong>{shoe.name}</strong> has run {formatShoeDistance(shoe.distance, units)}, past its{' '}
            {formatShoeDistance(shoe.limit_km, units)} limit.
          </li>
        ))}
      </ul>
      <Link to="/shoes" className="alert-link">
        Time for new shoes? Manage your shoes
      </Link>
    </div>
  );
}
