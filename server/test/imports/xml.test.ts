/** The XML reader under GPX and TCX (decision 040): the tree it gives and what it refuses. */
import { describe, expect, it } from 'vitest';
import { child, parseXml, xmlNumber, xmlText } from '../../features/imports/parsers/xml.js';

const read = (xml: string, arrays: string[] = []) => parseXml(new TextEncoder().encode(xml), new Set(arrays));

describe('parseXml', () => {
  it('gives elements by local name, attributes with @, repeated elements as arrays', () => {
    const tree = read(
      `<?xml version="1.0"?><gpx xmlns="http://www.topografix.com/GPX/1/1" xmlns:x="urn:x">
        <trk><trkpt lat="1.5" lon="2"><x:ext><x:hr> 150 </x:hr></x:ext></trkpt><trkpt lat="3" lon="4"/></trk></gpx>`,
      ['trk'],
    );
    const tracks = child(child(tree, 'gpx'), 'trk') as unknown[];
    expect(tracks).toHaveLength(1);
    const points = child(tracks[0], 'trkpt') as unknown[];
    expect(points).toHaveLength(2);
    expect(child(points[0], '@lat')).toBe('1.5');
    expect(xmlNumber(child(child(points[0], 'ext'), 'hr'))).toBe(150);
    expect(child(points[1], '@lon')).toBe('4');
    expect(child(child(tree, 'gpx'), '@xmlns')).toBeUndefined();
  });

  it('decodes entities and character references once, and reads CDATA as text', () => {
    const tree = read(
      '<a><b>Legs &amp; lungs &#233;t&#xE9; &amp;lt;</b><c><![CDATA[<raw> & ]]></c><d k="1">text</d></a>',
    );
    const a = child(tree, 'a');
    expect(xmlText(child(a, 'b'))).toBe('Legs & lungs été &lt;');
    expect(xmlText(child(a, 'c'))).toBe('<raw> &');
    expect(xmlText(child(a, 'd'))).toBe('text');
    expect(xmlNumber(child(a, 'missing'))).toBeNaN();
  });

  it('refuses a DOCTYPE, but not the word inside a comment', () => {
    expect(() => read('<!DOCTYPE a [<!ENTITY x "y">]><a>&x;</a>')).toThrow(/DOCTYPE/);
    expect(xmlText(child(read('<!-- no <!DOCTYPE here --><a>1</a>'), 'a'))).toBe('1');
  });

  it.each([
    ['truncated', '<gpx><trk><trkpt lat="1"'],
    ['unclosed', '<gpx><trk></gpx>'],
    ['an unknown entity', '<gpx>&nbsp;</gpx>'],
    ['empty', ''],
    ['not XML', 'date,distance\n2024-01-01,5'],
  ])('calls a file %s damaged', (_, xml) => {
    expect(() => read(xml)).toThrow(/damaged or truncated/);
  });
});
