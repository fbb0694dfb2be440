import { useParams } from 'react-router';
import { SegmentDetails } from '../../features/routes/components/segment-details';

/** A segment's page (CONTRACT.md §22). */
export function Component() {
  const id = Number(useParams().id);
  return <SegmentDetails key={id} id={id} />;
}
