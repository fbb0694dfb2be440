import { MessageSchema, UserEnvelopeSchema, type UserUpdateBody } from '../../core/schemas.js';
import { api } from './api-client';

/**
 * PUT /user/{id}: the one request behind the profile (features/profile) and the admin's user edit
 * (features/admin-users), whose hooks differ only in what they refresh afterwards. Answers the saved user.
 */
export async function updateUser({ id, ...body }: UserUpdateBody & { id: number }) {
  const result = await api.put(`/user/${id}`, UserEnvelopeSchema, body);
  return result.user;
}

/** DELETE /user/{id}: an admin deleting a user (features/admin-users), or a runner their own account (features/profile). */
export const deleteUser = (id: number) => api.delete(`/user/${id}`, MessageSchema);
