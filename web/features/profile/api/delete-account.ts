import { useMutation } from '@tanstack/react-query';
import { deleteUser } from '../../../lib/users-api';

/** Deletes the runner's own account, with all its runs, shoes, goals and tokens (CONTRACT.md §5). */
export function useDeleteAccount({ onSuccess }: { onSuccess: () => void }) {
  return useMutation({ mutationFn: deleteUser, onSuccess });
}
