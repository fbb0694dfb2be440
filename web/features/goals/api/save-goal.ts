import { useMutation, useQueryClient } from '@tanstack/react-query';
import { GoalEnvelopeSchema, type GoalBody } from '../../../../core/goals.js';
import { MessageSchema } from '../../../../core/schemas.js';
import { api } from '../../../lib/api-client';
import { queryKeys } from '../../../lib/query-keys';

/** A new goal (no `id`) or a change of one (with `id`). */
export type GoalChange = GoalBody & { id?: number };

export async function saveGoal({ id, ...input }: GoalChange) {
  const result =
    id === undefined
      ? await api.post('/goals', GoalEnvelopeSchema, input)
      : await api.put(`/goals/${id}`, GoalEnvelopeSchema, input);
  return result.goal;
}

export const deleteGoal = (id: number) => api.delete(`/goals/${id}`, MessageSchema);

function useGoalMutation<T>(mutationFn: (input: T) => Promise<unknown>, onSuccess?: () => void) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    onSuccess: async () => {
      onSuccess?.();
      await queryClient.invalidateQueries({ queryKey: queryKeys.goals });
    },
  });
}

export const useSaveGoal = ({ onSuccess }: { onSuccess?: () => void } = {}) => useGoalMutation(saveGoal, onSuccess);
export const useDeleteGoal = () => useGoalMutation(deleteGoal);
