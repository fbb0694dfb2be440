import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { tokenStorage } from '../../../lib/token-storage';
import { captureDownloads, fileResponse } from '../../../test/downloads';
import { ExportPanel } from './export-panel';

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('ExportPanel', () => {
  it('offers CSV, JSON and the zip of everything, each saying what it holds', () => {
    render(<ExportPanel />);
    expect(screen.getByRole('button', { name: 'Download CSV' })).toHaveAccessibleDescription(
      'Your runs, to open in a spreadsheet.',
    );
    expect(screen.getByRole('button', { name: 'Download JSON' })).toHaveAccessibleDescription(
      'Your runs with your shoes and goals.',
    );
    expect(screen.getByRole('button', { name: 'Download ZIP' })).toHaveAccessibleDescription(
      'Everything: every run with its track and original file (FIT, TCX or GPX), your shoes and goals, for moving to another Running Times server.',
    );
  });

  it('downloads the zip with the token and saves it under the name the server gives', async () => {
    tokenStorage.set('secret-token');
    const saved = captureDownloads();
    const fetchMock = vi.fn(async () =>
      fileResponse('PK zip', 'attachment; filename="running-times-2026-03-18.zip"'),
    );
    vi.stubGlobal('fetch', fetchMock);
    render(<ExportPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Download ZIP' }));
    expect(fetchMock).toHaveBeenCalledWith('/api/v1/export?format=zip', {
      headers: { Authorization: 'Bearer secret-token' },
    });
    await vi.waitFor(() => expect(saved.map((file) => file.name)).toEqual(['running-times-2026-03-18.zip']));
    expect(screen.getByRole('button', { name: 'Download ZIP' })).toBeEnabled();
  });

  it('says why when the server refuses', async () => {
    vi.stubGlobal('fetch', async () => new Response(JSON.stringify({ message: 'Unauthenticated.' }), { status: 401 }));
    render(<ExportPanel />);
    await userEvent.click(screen.getByRole('button', { name: 'Download ZIP' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unauthenticated.');
  });
});
