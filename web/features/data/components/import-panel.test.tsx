import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ImportResult, ImportRow } from '../../../../core/imports.js';
import { renderWithApp } from '../../../test/render';
import { ColumnMapping } from './column-mapping';
import { ImportPanel } from './import-panel';
import { ImportPreview } from './import-preview';
import { withDisplay } from '../../../test/render';

const entry = (date: string, distance: number, time: string, title: string | null = null) => ({
  user_id: 1,
  date,
  distance,
  time,
  speed: 10,
  pace: 6,
  title,
  notes: null,
  kind: null,
  effort: null,
  shoe_id: null,
  has_track: false,
  elevation_gain: null,
  elevation_loss: null,
  avg_heart_rate: null,
  max_heart_rate: null,
  avg_cadence: null,
});

const result = (rows: ImportRow[]): ImportResult => ({
  created: rows.filter((r) => r.status === 'would_create' || r.status === 'created').length,
  duplicates: rows.filter((r) => r.status === 'duplicate').length,
  skipped: rows.filter((r) => r.status === 'skipped').length,
  tracks_added: rows.filter((r) => r.status === 'would_add_track' || r.status === 'track_added').length,
  rows,
});

const PREVIEW = result([
  { source: 'activities.csv:2', status: 'would_create', entry: entry('2024-03-12', 10, '00:50:00', 'Morning Run') },
  { source: 'activities.csv:3', status: 'would_create', entry: entry('2024-03-13', 5, '00:25:00') },
  { source: 'activities.csv:4', status: 'duplicate', reason: 'A run of the same day, distance and time is already stored.' },
  { source: 'activities.csv:5', status: 'skipped', reason: 'Not a run (Ride).' },
]);

/** The rows of the preview table, as the text of their cells. */
const tableRows = () =>
  within(screen.getByRole('table'))
    .getAllByRole('row')
    .slice(1)
    .map((row) =>
      within(row)
        .getAllByRole('cell')
        .map((cell) => cell.textContent),
    );

describe('ImportPreview', () => {
  it('sums up the import and lists every row with its status and reason, distances in the runner unit', () => {
    render(withDisplay({ units: 'mi' }, <ImportPreview result={PREVIEW} units="mi" stored={false} />));
    expect(screen.getByRole('status')).toHaveTextContent('2 new runs, 1 duplicate, 1 skipped');
    expect(screen.getByRole('columnheader', { name: 'Distance (mi)' })).toBeInTheDocument();
    expect(tableRows()).toEqual([
      ['activities.csv:2', 'New', '03/12/2024', '6.21', '00:50:00', 'Morning Run'],
      ['activities.csv:3', 'New', '03/13/2024', '3.11', '00:25:00', ''],
      ['activities.csv:4', 'Duplicate', '', '', '', 'A run of the same day, distance and time is already stored.'],
      ['activities.csv:5', 'Skipped', '', '', '', 'Not a run (Ride).'],
    ]);
  });

  it('shows the stored run a duplicate matches, and links to it', () => {
    const duplicate = result([
      {
        source: 'again.fit',
        status: 'duplicate',
        reason: 'A run of the same day, distance and time is already stored.',
        duplicate_of: { id: 42, date: '2024-03-12', distance: 10, time: '00:50:00' },
      },
    ]);
    render(
      <MemoryRouter>
        <ImportPreview result={duplicate} units="km" stored={false} />
      </MemoryRouter>,
    );
    expect(tableRows()[0]).toEqual([
      'again.fit',
      'Duplicate',
      '03/12/2024',
      '10.00',
      '00:50:00',
      'A run of the same day, distance and time is already stored. Open the stored run',
    ]);
    expect(screen.getByRole('link', { name: 'Open the stored run' })).toHaveAttribute('href', '/entry/42');
  });

  it('says "imported" once the runs are stored', () => {
    const stored = result([{ source: 'a.fit', status: 'created', entry: entry('2024-03-12', 10, '00:50:00') }]);
    render(<ImportPreview result={stored} units="km" stored />);
    expect(screen.getByRole('status')).toHaveTextContent('1 run imported, 0 duplicates, 0 skipped');
    expect(tableRows()[0]).toEqual(['a.fit', 'Imported', '03/12/2024', '10.00', '00:50:00', '']);
  });

  it("writes the dates in the runner's date format", () => {
    const stored = result([{ source: 'a.fit', status: 'created', entry: entry('2024-03-12', 10, '00:50:00') }]);
    render(withDisplay({ dateFormat: 'DD/MM/YYYY' }, <ImportPreview result={stored} units="km" stored />));
    expect(tableRows()[0]?.[2]).toBe('12/03/2024');
  });
});

describe('ColumnMapping', () => {
  it('offers every column for each field, guesses what it can, and sends the mapping with its unit', async () => {
    const onSubmit = vi.fn();
    render(<ColumnMapping columns={['When', 'Distance (mi)', 'Duration', 'Name']} busy={false} onSubmit={onSubmit} />);
    const date = screen.getByRole('combobox', { name: 'Date' });
    expect(within(date).getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Choose a column',
      'When',
      'Distance (mi)',
      'Duration',
      'Name',
    ]);
    // "Distance (mi)" is guessed for the distance; date and time are not named so.
    expect(screen.getByRole('combobox', { name: 'Distance' })).toHaveValue('Distance (mi)');
    expect(date).toHaveValue('');
    const again = screen.getByRole('button', { name: 'Preview again' });
    expect(again).toBeDisabled();

    await userEvent.selectOptions(date, 'When');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Time' }), 'Duration');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Title (optional)' }), 'Name');
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Distance unit' }), 'Miles');
    expect(again).toBeEnabled();
    await userEvent.click(again);
    expect(onSubmit).toHaveBeenCalledWith({
      date: 'When',
      distance: 'Distance (mi)',
      time: 'Duration',
      distance_unit: 'mi',
      title: 'Name',
    });
  });
});

/** XMLHttpRequest as the import sends it: the test moves the upload and answers. */
class FakeXhr {
  static sent: FakeXhr[] = [];
  upload: { onprogress: ((event: { loaded: number; total: number; lengthComputable: boolean }) => void) | null } = {
    onprogress: null,
  };
  onload: (() => void) | null = null;
  onerror: (() => void) | null = null;
  status = 0;
  responseText = '';
  url = '';
  body: FormData | null = null;

  open(_method: string, url: string) {
    this.url = url;
  }
  setRequestHeader() {}
  send(body: FormData) {
    this.body = body;
    FakeXhr.sent.push(this);
  }
  progress(loaded: number, total: number) {
    act(() => this.upload.onprogress?.({ loaded, total, lengthComputable: true }));
  }
  respond(status: number, json: unknown) {
    this.status = status;
    this.responseText = JSON.stringify(json);
    act(() => this.onload?.());
  }
}

describe('ImportPanel', () => {
  beforeEach(() => {
    FakeXhr.sent = [];
    vi.stubGlobal('XMLHttpRequest', FakeXhr);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  const choose = async (name: string, text = 'x'.repeat(3000)) => {
    await userEvent.upload(screen.getByLabelText('Drop files here, or choose them'), new File([text], name));
  };

  it('shows the upload, then the processing, then the preview; importing stores and says so', async () => {
    renderWithApp(<ImportPanel units="km" />);
    expect(screen.getByRole('button', { name: 'Preview import' })).toBeDisabled();
    await choose('activities.csv');
    expect(screen.getByText('activities.csv (3 KB)')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Preview import' }));

    const preview = FakeXhr.sent[0]!;
    expect(preview.body!.get('dry_run')).toBe('1');
    expect((preview.body!.get('file') as File).name).toBe('activities.csv');
    expect(screen.getByRole('button', { name: 'Preview import' })).toBeDisabled();
    preview.progress(1024, 3000);
    expect(screen.getByText('Uploading…')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Upload' })).toHaveAttribute('aria-valuetext', '1 KB of 3 KB sent');
    preview.progress(3000, 3000);
    expect(screen.getByText('Processing the files…')).toBeInTheDocument();
    expect(screen.queryByRole('progressbar')).not.toBeInTheDocument();
    preview.respond(200, { import: PREVIEW });

    expect(await screen.findByText('2 new runs, 1 duplicate, 1 skipped')).toBeInTheDocument();
    expect(screen.queryByText('Processing the files…')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Import 2 runs' }));
    const store = FakeXhr.sent[1]!;
    expect(store.body!.get('dry_run')).toBeNull();
    const stored = result(
      PREVIEW.rows.map((row) => (row.status === 'would_create' ? { ...row, status: 'created' as const } : row)),
    );
    store.progress(3000, 3000);
    store.respond(201, { import: stored });
    expect(await screen.findByText('2 runs imported, 1 duplicate, 1 skipped')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Import \d/ })).not.toBeInTheDocument();
  });

  it('leaves the rows unticked in the preview out of the import', async () => {
    renderWithApp(<ImportPanel units="km" />);
    await choose('activities.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Preview import' }));
    FakeXhr.sent[0]!.respond(200, { import: PREVIEW });
    const first = await screen.findByRole('checkbox', { name: 'Import activities.csv:2' });
    // Only new rows can be left out.
    expect(screen.getAllByRole('checkbox')).toHaveLength(2);
    expect(first).toBeChecked();
    await userEvent.click(first);
    expect(first).not.toBeChecked();
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 run' }));
    const store = FakeXhr.sent[1]!;
    expect(store.body!.get('dry_run')).toBeNull();
    expect(store.body!.getAll('exclude')).toEqual(['activities.csv:2']);
  });

  it('imports a preview that only gives stored runs their tracks', async () => {
    renderWithApp(<ImportPanel units="km" />);
    await choose('running-times-2026-03-18.zip');
    await userEvent.click(screen.getByRole('button', { name: 'Preview import' }));
    const stored = { ...entry('2024-03-12', 10, '00:50:00'), id: 7, created_at: '', updated_at: '' };
    FakeXhr.sent[0]!.respond(200, {
      import: result([
        { source: 'running-times.json#1', status: 'would_add_track', entry: stored },
        { source: 'running-times.json#2', status: 'duplicate', reason: 'A run of the same day, distance and time is already stored.' },
      ]),
    });
    expect(await screen.findByText('0 new runs, 1 track for a stored run, 1 duplicate, 0 skipped')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Import 1 track' }));
    expect(FakeXhr.sent[1]!.body!.get('dry_run')).toBeNull();
  });

  it('asks which column is which for a CSV it does not know, and previews again with the mapping', async () => {
    renderWithApp(<ImportPanel units="km" />);
    await choose('log.csv');
    await userEvent.click(screen.getByRole('button', { name: 'Preview import' }));
    const columns = ['Day', 'Distance', 'Time'];
    FakeXhr.sent[0]!.respond(200, {
      import: result([{ source: 'log.csv', status: 'skipped', reason: 'This CSV is not one this server recognises.', columns }]),
    });
    expect(await screen.findByRole('heading', { name: 'Which column is which?' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Import 0 runs' })).toBeDisabled();
    await userEvent.selectOptions(screen.getByRole('combobox', { name: 'Date' }), 'Day');
    await userEvent.click(screen.getByRole('button', { name: 'Preview again' }));
    const again = FakeXhr.sent[1]!;
    expect(again.body!.get('dry_run')).toBe('1');
    expect(JSON.parse(again.body!.get('mapping') as string)).toEqual({
      date: 'Day',
      distance: 'Distance',
      time: 'Time',
      distance_unit: 'km',
    });
  });

  it("shows the server's message when the import is refused", async () => {
    renderWithApp(<ImportPanel units="km" />);
    await choose('big.zip');
    await userEvent.click(screen.getByRole('button', { name: 'Preview import' }));
    FakeXhr.sent[0]!.respond(413, { message: 'The upload is larger than the import limit of 200 MiB.' });
    expect(await screen.findByRole('alert')).toHaveTextContent('The upload is larger than the import limit of 200 MiB.');
    await waitFor(() => expect(screen.getByRole('button', { name: 'Preview import' })).toBeEnabled());
  });
});
