import { Link } from 'react-router';
import type { Units } from '../../../../core/units.js';
import shoesTexts from 'virtual:i18n/shoes';
import { useT } from '../../../i18n/runtime';
import { useDisplay } from '../../../lib/display';
import { useShoes } from '../api/get-shoes';
import { formatShoeDistance } from './shoe-format';

/** The dashboard's warning for each shoe in use that has run past its limit. */
export function ShoeAlerts({ units }: { units: Units }) {
  const t = useT(shoesTexts);
  const { labels } = useDisplay();
  const worn = (useShoes().data ?? []).filter((shoe) => shoe.over_limit && !shoe.retired);
  if (worn.length === 0) return null;
  return (
    <div className="alert alert-warning" role="status">
      <ul className="list-unstyled mb-1">
        {worn.map((shoe) => {
          // The shoe's name in bold where the language puts it (as splitAround, with the distances filled in).
          const [before = '', after = ''] = t('shoes.alerts.overLimit', {
            name: '\u0000',
            distance: formatShoeDistance(shoe.distance, units, labels.distance),
            limit: formatShoeDistance(shoe.limit_km, units, labels.distance),
          }).split('\u0000');
          return (
            <li key={shoe.id}>
              {before}
              <strong translate="no">{shoe.name}</strong>
              {after}
            </li>
          );
        })}
      </ul>
      <Link to="/shoes" className="alert-link">
        {t('shoes.alerts.manage')}
      </Link>
    </div>
  );
}
