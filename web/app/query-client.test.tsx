import { useQuery } from '@tanstack/react-query';
import { screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { api, ApiError, UnexpectedResponseError } from '../lib/api-client';
import { parseAppConfig, ResponseShapeError } from '../lib/response-guards';
import { mockFetch } from '../test/fetch-mock';
import { renderWithApp } from '../test/render';
import { createRequestErrorHandler } from './query-client';

function Probe({ path }: { path: string }) {
  const query = useQuery({ queryKey: [path], queryFn: () => api.get(path, z.object({})) });
  return <p>{query.status}</p>;
}

describe('global request error toast', () => {
  it('shows the server message as a danger toast', async () => {
    mockFetch({ 'GET /api/v1/entry': { status: 403, body: { message: 'This action is unauthorized.' } } });
    renderWithApp(<Probe path="/entry" />);
    const toast = await screen.findByRole('alert');
    expect(toast).toHaveTextContent('This action is unauthorized.');
    expect(toast.closest('.toast')).toHaveClass('text-bg-danger');
  });

  it('falls back to "Request error status: N" without a message', async () => {
    mockFetch({ 'GET /api/v1/report/weekly': { status: 502, body: 'Bad gateway' } });
    renderWithApp(<Probe path="/report/weekly" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('Request error status: 502');
  });

  it('stays silent for URLs containing /me', async () => {
    mockFetch({ 'GET /api/v1/user/me': { status: 500, body: { message: 'Server Error' } } });
    renderWithApp(<Probe path="/user/me" />);
    await screen.findByText('error');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('reports an expired session once a 401 arrives outside /auth', () => {
    const notify = vi.fn();
    const onSessionExpired = vi.fn();
    const handle = createRequestErrorHandler({ notify, onSessionExpired });
    handle(new ApiError(401, '/api/v1/auth/login', { message: 'These credentials do not match our records.' }));
    expect(onSessionExpired).not.toHaveBeenCalled();
    handle(new ApiError(401, '/api/v1/entry', { message: 'Unauthenticated.' }));
    expect(onSessionExpired).toHaveBeenCalledOnce();
    expect(notify).toHaveBeenLastCalledWith('Unauthenticated.', 'danger');
  });

  it('shows nothing while a request is only cancelled', () => {
    const notify = vi.fn();
    createRequestErrorHandler({ notify })(new DOMException('aborted', 'AbortError'));
    expect(notify).not.toHaveBeenCalled();
  });
});

describe('api client', () => {
  it('sends updates and deletes as POST with _method', async () => {
    const calls = mockFetch({ 'POST /api/v1/entry/3': { body: {} } });
    await api.put('/entry/3', z.object({}), { distance: 5 });
    await api.delete('/entry/3', z.object({}));
    expect(calls.map((call) => [call.method, call.body])).toEqual([
      ['POST', { distance: 5, _method: 'PUT' }],
      ['POST', { _method: 'DELETE' }],
    ]);
  });

  it('rejects answers that do not match the schema', async () => {
    mockFetch({ 'GET /api/v1/dashboard/data': { body: { weekly_count: 'many' } } });
    await expect(api.get('/dashboard/data', z.object({ weekly_count: z.number() }))).rejects.toThrow(
      'Unexpected response from the server.',
    );
  });

  it('checks answers with a guard function too, keeping what was wrong as the cause', async () => {
    mockFetch({ 'GET /api/v1/app-config': { body: { demo_mode: 'no', demo_login: null, map: null } } });
    const failure = api.get('/app-config', parseAppConfig);
    await expect(failure).rejects.toBeInstanceOf(UnexpectedResponseError);
    await expect(failure).rejects.toMatchObject({
      message: 'Unexpected response from the server.',
      url: '/api/v1/app-config',
      cause: expect.any(ResponseShapeError),
    });
    await expect(failure).rejects.toHaveProperty(
      'cause.message',
      'app config.demo_mode must be a boolean, got the string "no".',
    );
  });

  it('keeps the server message and field errors of a failed request, or falls back to the status', async () => {
    mockFetch({
      'POST /api/v1/entry': {
        status: 422,
        body: { message: 'The date field is required.', errors: { date: ['The date field is required.'] } },
      },
      'POST /api/v1/entry/3': { status: 422, body: { message: 'Invalid.', errors: { date: 'not a list' } } },
    });
    const invalid = api.post('/entry', z.object({}));
    await expect(invalid).rejects.toBeInstanceOf(ApiError);
    await expect(invalid).rejects.toMatchObject({
      status: 422,
      message: 'The date field is required.',
      errors: { date: ['The date field is required.'] },
    });
    await expect(api.post('/entry/3', z.object({}))).rejects.toMatchObject({
      status: 422,
      message: 'Request error status: 422',
      errors: {},
    });
  });
});
