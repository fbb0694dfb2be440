import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { describe, expect, it } from 'vitest';
import { escapeXml, gpxChunks } from './gpx.js';
import { makeTrack } from './test-tracks.js';

const nan = Number.NaN;
const start = Date.UTC(2026, 2, 12, 18, 0, 0);

const gpxOf = (...args: Parameters<typeof gpxChunks>) => [...gpxChunks(...args)].join('');

describe('the GPX writer', () => {
  const track = makeTrack({
    t: [0, 1.5, 2, 10, 11],
    lat: [52.5, 52.500012, nan, 52.5001, 52.5002],
    lon: [13.4, 13.400021, nan, 13.4001, -0.000001],
    ele: [34.5, nan, 35, 36.1, 36.2],
    hr: [140, nan, 141, 150, 0],
    cad: [171, 172, nan, nan, 170],
    pauses: [[2, 9]],
  });
  const gpx = gpxOf(track, { name: 'Tom & "Jerry" <3', startMs: start });

  it('writes well-formed GPX 1.1 with the Garmin TrackPointExtension namespace', () => {
    expect(XMLValidator.validate(gpx)).toBe(true);
    expect(gpx).toContain('<gpx version="1.1" creator="Running Times" xmlns="http://www.topografix.com/GPX/1/1"');
    expect(gpx).toContain('xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v1"');
    expect(gpx).toContain('<name>Tom &amp; &quot;Jerry&quot; &lt;3</name>');
  });

  it('writes one trkpt per sample with a position, and starts a new trkseg after each pause', () => {
    const parsed = new XMLParser({
      ignoreAttributes: false,
      isArray: (name) => ['trkseg', 'trkpt'].includes(name),
    }).parse(gpx);
    const segments = parsed.gpx.trk.trkseg as { trkpt: Record<string, unknown>[] }[];
    expect(segments.map((segment) => segment.trkpt.length)).toEqual([2, 2]);
    expect(segments[0]!.trkpt[0]).toEqual({
      '@_lat': '52.5',
      '@_lon': '13.4',
      ele: 34.5,
      time: '2026-03-12T18:00:00.000Z',
      extensions: { 'gpxtpx:TrackPointExtension': { 'gpxtpx:hr': 140, 'gpxtpx:cad': 86 } },
    });
    // No elevation nor heart rate: left out; cadence per leg, halves up.
    expect(segments[0]!.trkpt[1]).toEqual({
      '@_lat': '52.500012',
      '@_lon': '13.400021',
      time: '2026-03-12T18:00:01.500Z',
      extensions: { 'gpxtpx:TrackPointExtension': { 'gpxtpx:cad': 86 } },
    });
    // A longitude of -0.000001 stays a decimal, never "-1e-6"; no extension without heart rate or cadence.
    expect(segments[1]!.trkpt[0]).toEqual({
      '@_lat': '52.5001',
      '@_lon': '13.4001',
      ele: 36.1,
      time: '2026-03-12T18:00:10.000Z',
      extensions: { 'gpxtpx:TrackPointExtension': { 'gpxtpx:hr': 150 } },
    });
    expect(segments[1]!.trkpt[1]!['@_lon']).toBe('-0.000001');
  });

  it('streams in chunks of points, never one string per sample nor the whole file at once', () => {
    const n = 1234;
    const long = makeTrack({
      t: Array.from({ length: n }, (_, i) => i),
      lat: Array.from({ length: n }, (_, i) => 45 + i * 1e-5),
      lon: Array.from({ length: n }, () => 7),
    });
    const chunks = [...gpxChunks(long, { name: null, startMs: start })];
    expect(chunks.length).toBe(4); // the head, 500 + 500 points, the last 234 and the tail
    const whole = chunks.join('');
    expect(whole.match(/<trkpt /g)).toHaveLength(n);
    expect(whole.match(/<trkseg>/g)).toHaveLength(1);
    expect(whole).not.toContain('<name>');
    expect(XMLValidator.validate(whole)).toBe(true);
  });

  it('writes an empty track without positions', () => {
    const gpx = gpxOf(makeTrack({ t: [0, 1] }), { name: 'x', startMs: start });
    expect(XMLValidator.validate(gpx)).toBe(true);
    expect(gpx).not.toContain('<trkseg>');
  });
});

describe('escaping', () => {
  it('escapes markup and drops what XML cannot carry', () => {
    expect(escapeXml(`a<b>&'"`)).toBe('a&lt;b&gt;&amp;&apos;&quot;');
    expect(escapeXml('tab\tbell\u0007 nul\u0000 lone\uD800 pair\uD83C\uDFC3')).toBe(
      'tab\tbell nul lone pair\uD83C\uDFC3',
    );
  });
});
