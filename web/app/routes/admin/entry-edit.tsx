import { useParams } from 'react-router';
import { EntryEditScreen } from '../entry-edit-screen';

export function Component() {
  const id = Number(useParams().id);
  return <EntryEditScreen key={id} id={id} fallback="/admin/entries" />;
}
