import { useParams } from 'react-router';
import { RunScreen } from '../run-screen';

export function Component() {
  const id = Number(useParams().id);
  return <RunScreen key={id} id={id} place="admin" />;
}
