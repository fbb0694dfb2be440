import { render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { loopTrack } from '../../../../core/tracks/test-tracks.js';
import { withDisplay } from '../../../test/render';
import { analysedTrack, smallTrack, trackDisplay } from '../../../test/track-fixtures';
import {
  BestEffortsTable,
  ElevationSummary,
  HeartRateSummary,
  HeartRateZonesTable,
  LapsTable,
  SplitsTable,
  TrackCoverage,
} from './track-tables';

/** The text of each cell, row by row, of a part of a table. */
function cells(table: HTMLElement, part: 'thead' | 'tbody' | 'tfoot'): string[][] {
  const section = table.querySelector(part);
  if (!section) return [];
  return [...section.querySelectorAll('tr')].map((row) =>
    [...row.querySelectorAll('th, td')].map((cell) => cell.textContent ?? ''),
  );
}

const track = smallTrack();

describe('SplitsTable', () => {
  it('shows km splits with their pace, climb and heart rate, and the totals in the footer', () => {
    render(<SplitsTable splits={track.splits} display={trackDisplay('km')} averageHeartRate={148} />);
    const table = screen.getByRole('table', { name: 'Splits' });
    expect(cells(table, 'thead')).toEqual([['Km', 'Distance (km)', 'Time', 'Pace (min/km)', 'Elev. (m)', 'HR (bpm)']]);
    // 310.4 s over 1 km is 5.173 min/km; the last split is 500 m in 160 s, 5.333 min/km.
    expect(cells(table, 'tbody')).toEqual([
      ['1', '1.00', '00:05:00', '5.00', '+5', '140'],
      ['2', '1.00', '00:05:10', '5.17', '−3', '150'],
      ['3', '0.50', '00:02:40', '5.33', '0', '155'],
    ]);
    // 2.5 km in 770.4 s: 5.136 min/km; net climb 5.2 - 3.1 + 0 = 2.1 m.
    expect(cells(table, 'tfoot')).toEqual([['Total', '2.50', '00:12:50', '5.14', '+2', '148']]);
  });

  it('agrees with the run where the track covers less of it: the track, the rest and the total of the header', () => {
    // The run's numbers: 4 km in 00:12:50 (a GPX with 1.5 km of points without times); the track: 2.5 km.
    render(
      <SplitsTable
        splits={track.splits}
        display={trackDisplay('km')}
        averageHeartRate={148}
        run={{ distance: 4, time: '00:12:50' }}
      />,
    );
    expect(cells(screen.getByRole('table', { name: 'Splits' }), 'tfoot')).toEqual([
      ['Track', '2.50', '00:12:50', '5.14', '+2', '148'],
      ['Not in the track', '1.50', '—', '—', '', ''],
      ['Total', '4.00', '00:12:50', '3.21', '', ''],
    ]);
  });

  it('keeps one Total, as the header says, where the track covers the run (within 10 m or 0.5%)', () => {
    render(
      <SplitsTable
        splits={track.splits}
        display={trackDisplay('km')}
        averageHeartRate={148}
        run={{ distance: 2.51, time: '00:12:50' }}
      />,
    );
    // The splits add up to 2.50 km: the total is the run's 2.51 km, as the page's header says.
    expect(cells(screen.getByRole('table', { name: 'Splits' }), 'tfoot')).toEqual([
      ['Total', '2.51', '00:12:50', '5.11', '+2', '148'],
    ]);
  });

  it('shows mile splits in miles and min/mi for a runner in miles', () => {
    render(<SplitsTable splits={track.splits} display={trackDisplay('mi')} averageHeartRate={148} />);
    const table = screen.getByRole('table', { name: 'Splits' });
    expect(cells(table, 'thead')[0]).toEqual([
      'Mile',
      'Distance (mi)',
      'Time',
      'Pace (min/mi)',
      'Elev. (ft)',
      'HR (bpm)',
    ]);
    // 500 s over 1,609.3 m = 0.99997 mi: 8.334 min/mi; 270.4 s over 890.7 m = 0.55346 mi: 8.143 min/mi.
    expect(cells(table, 'tbody')).toEqual([
      // Climbs in feet: 2.1 m is 7 ft.
      ['1', '1.00', '00:08:20', '8.33', '+7', '145'],
      ['2', '0.55', '00:04:30', '8.14', '0', '153'],
    ]);
    // 2,500 m = 1.5534 mi in 770.4 s: 8.266 min/mi.
    expect(cells(table, 'tfoot')).toEqual([['Total', '1.55', '00:12:50', '8.27', '+7', '148']]);
  });

  it('writes paces as a clock for a runner who reads them so', () => {
    render(<SplitsTable splits={track.splits} display={trackDisplay('km', 'clock')} averageHeartRate={null} />);
    const table = screen.getByRole('table', { name: 'Splits' });
    expect(cells(table, 'thead')[0]![3]).toBe('Pace (/km)');
    expect(cells(table, 'tbody').map((row) => row[3])).toEqual(['5:00', '5:10', '5:20']);
    expect(cells(table, 'tfoot')[0]![5]).toBe('—');
  });

  it('leaves out the columns of channels the track lacks', () => {
    const bare = {
      km: track.splits.km.map((split) => ({ ...split, elevation_change: null, heart_rate: null })),
      mi: [],
    };
    render(<SplitsTable splits={bare} display={trackDisplay('km')} averageHeartRate={null} />);
    const table = screen.getByRole('table', { name: 'Splits' });
    expect(cells(table, 'thead')).toEqual([['Km', 'Distance (km)', 'Time', 'Pace (min/km)']]);
    expect(cells(table, 'tbody')[0]).toEqual(['1', '1.00', '00:05:00', '5.00']);
  });

  it('has one row per split of a real analysis', () => {
    const analysed = analysedTrack(loopTrack({ seconds: 1000, metresPerSecond: 3.3 }));
    render(<SplitsTable splits={analysed.splits} display={trackDisplay('km')} averageHeartRate={null} />);
    const table = screen.getByRole('table', { name: 'Splits' });
    // 3,300 m: three whole kilometres and 300 m.
    expect(cells(table, 'tbody').map((row) => [row[0], row[1]])).toEqual([
      ['1', '1.00'],
      ['2', '1.00'],
      ['3', '1.00'],
      ['4', '0.30'],
    ]);
    expect(cells(table, 'tfoot')[0]!.slice(0, 3)).toEqual(['Total', '3.30', '00:16:40']);
  });
});

describe('TrackCoverage', () => {
  it('says in a sentence how much of the run the track covers, and nothing where it covers all of it', () => {
    const { container, rerender } = render(
      <TrackCoverage splits={track.splits} display={trackDisplay('km')} run={{ distance: 4, time: '00:12:50' }} />,
    );
    expect(screen.getByRole('note')).toHaveTextContent(
      "The recorded track covers 2.50 km of this run's 4.00 km: the other 1.50 km are not in it",
    );
    expect(screen.getByRole('note')).toHaveTextContent('points without times');
    rerender(
      <TrackCoverage splits={track.splits} display={trackDisplay('mi')} run={{ distance: 4, time: '00:12:50' }} />,
    );
    expect(screen.getByRole('note')).toHaveTextContent("covers 1.55 mi of this run's 2.49 mi");
    rerender(
      <TrackCoverage splits={track.splits} display={trackDisplay('km')} run={{ distance: 2.5, time: '00:12:50' }} />,
    );
    expect(container).toBeEmptyDOMElement();
  });
});

describe('LapsTable', () => {
  it('shows each lap from its start, and the laps’ totals', () => {
    render(<LapsTable laps={track.laps} display={trackDisplay('km')} />);
    const table = screen.getByRole('table', { name: 'Laps' });
    expect(cells(table, 'tbody')).toEqual([
      ['1', '00:00:00', '1.50', '00:07:30', '5.00'],
      // 320.2 s over 1.0005 km: 5.334 min/km.
      ['2', '00:07:40', '1.00', '00:05:20', '5.33'],
    ]);
    // 2.5005 km in 770.2 s: 5.134 min/km.
    expect(cells(table, 'tfoot')).toEqual([['Total', '2.50', '00:12:50', '5.13']]);
  });

  it('totals as the header where the laps add up to the run within seconds, their own sums where not', () => {
    // The watch's session says 00:12:52; its laps add up to 00:12:50 (770.2 s): one answer, the header's.
    const { rerender } = render(
      <LapsTable laps={track.laps} display={trackDisplay('km')} run={{ distance: 2.5, time: '00:12:52' }} />,
    );
    expect(cells(screen.getByRole('table', { name: 'Laps' }), 'tfoot')).toEqual([
      ['Total', '2.50', '00:12:52', '5.15'],
    ]);
    // Laps that cover half the run are not the run: their own sums.
    rerender(<LapsTable laps={track.laps} display={trackDisplay('km')} run={{ distance: 5, time: '00:25:40' }} />);
    expect(cells(screen.getByRole('table', { name: 'Laps' }), 'tfoot')).toEqual([
      ['Total', '2.50', '00:12:50', '5.13'],
    ]);
  });
});

describe('BestEffortsTable', () => {
  it('names each distance, with its time, pace and where it started', () => {
    render(<BestEffortsTable efforts={track.best_efforts} display={trackDisplay('km')} />);
    const table = screen.getByRole('table', { name: 'Best efforts' });
    expect(cells(table, 'thead')).toEqual([['Distance', 'Time', 'Pace (min/km)', 'Started at (km)']]);
    expect(cells(table, 'tbody')).toEqual([
      ['1 km', '00:04:50', '4.83', '1.20'],
      ['1 mile', '00:07:59', '4.96', '0.42'],
    ]);
    expect(table.querySelector('tfoot')).toBeNull();
  });

  it('converts paces and starts to miles', () => {
    render(<BestEffortsTable efforts={track.best_efforts} display={trackDisplay('mi')} />);
    const table = screen.getByRole('table', { name: 'Best efforts' });
    // 4.83 min/km x 1.609344 = 7.773 min/mi; 1,200 m = 0.7456 mi.
    expect(cells(table, 'tbody')[0]).toEqual(['1 km', '00:04:50', '7.77', '0.75']);
  });
});

describe('HeartRateZonesTable', () => {
  it('shows the five zones with their ranges, times and shares; below zone 1, the total and TRIMP in the footer', () => {
    render(<HeartRateZonesTable heartRate={track.heart_rate!} />);
    const table = screen.getByRole('table', { name: 'Heart-rate zones' });
    // 770 s in all: 60 / 770 = 7.8%, 120 / 770 = 15.6%, ...
    expect(cells(table, 'tbody')).toEqual([
      ['Zone 1', '95–113', '00:01:00', '7.8%'],
      ['Zone 2', '114–132', '00:02:00', '15.6%'],
      ['Zone 3', '133–151', '00:05:00', '39.0%'],
      ['Zone 4', '152–170', '00:04:00', '31.2%'],
      ['Zone 5', '171 and above', '00:00:30', '3.9%'],
    ]);
    expect(cells(table, 'tfoot')).toEqual([
      ['Below zone 1', 'under 95', '00:00:20', '2.6%'],
      ['Total', '', '00:12:50', '100.0%'],
      ['TRIMP', '38.5'],
    ]);
  });

  it('shows no share when no sample weighs anything', () => {
    const idle = {
      ...track.heart_rate!,
      zones: track.heart_rate!.zones.map((zone) => ({ ...zone, seconds: 0 })),
      below_zones: 0,
      trimp: 0,
    };
    render(<HeartRateZonesTable heartRate={idle} />);
    const table = screen.getByRole('table', { name: 'Heart-rate zones' });
    expect(cells(table, 'tbody').map((row) => row[3])).toEqual(['—', '—', '—', '—', '—']);
  });

  it('says where the maximum comes from', () => {
    const { rerender } = render(<HeartRateSummary heartRate={track.heart_rate!} />);
    expect(screen.getByText(/Zones from a maximum of 190 bpm \(your profile\)/)).toHaveTextContent(
      'They follow the maximum heart rate set in your profile.',
    );
    rerender(<HeartRateSummary heartRate={{ ...track.heart_rate!, max_source: 'observed', max_used: 196 }} />);
    expect(screen.getByText(/maximum of 196 bpm \(the highest heart rate of your tracks\)/)).toBeInTheDocument();
    expect(screen.getByText(/Your profile has no maximum heart rate/)).toHaveTextContent(
      'the highest heart rate of all your tracks is used, at most 220 bpm; set yours in the preferences of your profile',
    );
  });
});

describe('ElevationSummary', () => {
  it('shows gain, loss and whether the device counted them', () => {
    const { rerender } = render(<ElevationSummary elevation={{ gain: 14, loss: 12, source: 'track' }} units="km" />);
    const terms = () => screen.getAllByRole('definition').map((item) => item.textContent);
    expect(terms()).toEqual(['14 m', '12 m', 'From the elevation of the track (3 m steps)']);
    rerender(<ElevationSummary elevation={{ gain: 420, loss: 415, source: 'device' }} units="km" />);
    expect(terms()).toEqual(['420 m', '415 m', 'Counted by the device']);
  });

  it('shows gain and loss in feet to a runner in miles', () => {
    render(
      withDisplay(
        { units: 'mi' },
        <ElevationSummary elevation={{ gain: 420, loss: 415, source: 'device' }} units="mi" />,
      ),
    );
    const terms = screen.getAllByRole('definition').map((item) => item.textContent);
    // 420 m / 0.3048 = 1,377.95 ft; 415 m = 1,361.55 ft.
    expect(terms.slice(0, 2)).toEqual(['1,378 ft', '1,362 ft']);
  });
});
