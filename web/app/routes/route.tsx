import { useParams } from 'react-router';
import { RouteDetails } from '../../features/routes/components/route-details';
import { RouteThumbnail } from '../../features/tracks/components/route-thumbnail';

/** A route's page (CONTRACT.md §22): rename, its runs fastest first, their times over the years. */
export function Component() {
  const id = Number(useParams().id);
  return (
    <RouteDetails
      key={id}
      id={id}
      renderMap={(route, label) => <RouteThumbnail polyline={route.polyline} label={label} />}
    />
  );
}
