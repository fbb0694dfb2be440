/**
 * The server's catalogs (CONTRACT.md §19): every key of English in every language, no other key,
 * the same placeholders; and English texts recognised and written again in each language.
 */
import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../languages.js';
import { en } from './en.js';
import { placeholdersOf, reasonCode, recognise, SERVER_CATALOGS, translate } from './translate.js';

const sorted = (list: string[]) => [...list].sort();

describe('the server catalogs', () => {
  for (const lang of LANGUAGES) {
    it(`${lang} has every key of en, no other, with the same placeholders`, () => {
      const catalog = SERVER_CATALOGS[lang] as Record<string, string>;
      const problems: string[] = [];
      for (const key of Object.keys(en)) {
        if (typeof catalog[key] !== 'string' || catalog[key] === '') {
          problems.push(`${lang}: key "${key}" is missing`);
          continue;
        }
        const want = sorted(placeholdersOf(en[key as keyof typeof en]));
        const have = sorted(placeholdersOf(catalog[key]));
        if (want.join() !== have.join()) {
          problems.push(`${lang}: key "${key}" has placeholders {${have.join('}, {')}}, en has {${want.join('}, {')}}`);
        }
      }
      for (const key of Object.keys(catalog)) {
        if (!(key in en)) problems.push(`${lang}: key "${key}" is not in en`);
      }
      expect(problems).toEqual([]);
    });
  }

  it('keys are snake_case (they are the reasons’ reason_code)', () => {
    const bad = Object.keys(en).filter((key) => !/^(field\.[A-Za-z_]+|word\.[a-z]+|[a-z][a-z0-9_]*)$/.test(key));
    expect(bad).toEqual([]);
  });

  it('every English sentence, filled in, is recognised as its own key', () => {
    const sample: Record<string, string> = {
      field: 'distance',
      values: 'km or mi',
      list: 'easy, long or race',
      n: '1,500',
      min: '1',
      max: '100',
      seconds: '30',
      line: '7',
      step: '3rd',
    };
    const filled = (text: string) => text.replace(/\{(\w+)\}/g, (_, name: string) => sample[name] ?? 'run 1.fit');
    const wrong = Object.entries(en)
      .filter(([key]) => !key.includes('.'))
      .filter(([key, text]) => recognise(filled(text))?.key !== key)
      .map(([key, text]) => `${key}: ${filled(text)} -> ${recognise(filled(text))?.key ?? 'nothing'}`);
    expect(wrong).toEqual([]);
  });
});

describe('translate', () => {
  it('leaves English and unknown texts as they are', () => {
    expect(translate('The distance must be greater than 0.', 'en')).toBe('The distance must be greater than 0.');
    expect(translate('Something no catalog has.', 'de')).toBe('Something no catalog has.');
  });

  it('writes the field by its name in the language, and numbers without English grouping', () => {
    expect(translate('The distance must be greater than 0.', 'de')).toBe('Das Feld „Distanz“ muss größer als 0 sein.');
    expect(translate('The email field is required.', 'fr')).toBe('Le champ « e-mail » est obligatoire.');
    expect(translate('The password must be at least 8 characters.', 'es')).toBe(
      'El campo «contraseña» debe tener al menos 8 caracteres.',
    );
    expect(translate('The track had 12,345 samples: every 3rd one and the last are kept (at most 5,000).', 'it')).toBe(
      'La traccia aveva 12345 punti: vengono tenuti un punto ogni 3 e l’ultimo (al massimo 5000).',
    );
  });

  it('writes lists of values with the language’s "or", the values as the API spells them', () => {
    expect(translate('The units must be km or mi.', 'nl')).toBe('Het veld ‘eenheden’ moet km of mi zijn.');
    expect(translate('The kind must be one of easy, long, workout or race.', 'de')).toBe(
      'Das Feld „Art“ muss einer dieser Werte sein: easy, long, workout oder race.',
    );
  });

  it('writes a reason that holds another sentence, and the list of every sort', () => {
    expect(
      translate('The run is kept without its track: A track has more laps or pauses than it may keep.', 'de'),
    ).toBe('Der Lauf wird ohne seinen Track übernommen: Der Track hat mehr Runden oder Pausen, als er behalten kann.');
    expect(translate('The sort must be one of -date, date, distance, -distance.', 'es')).toBe(
      'El campo «orden» debe ser uno de estos valores: -date, date, distance, -distance.',
    );
  });

  it('keeps data (a file, a row) as sent, and a file named after a reason', () => {
    expect(translate('The same run as runs.csv line 4.', 'de')).toBe('Derselbe Lauf wie runs.csv line 4.');
    expect(translate('The file is not a FIT file. (ride.fit)', 'fr')).toBe(
      'Le fichier n’est pas un fichier FIT. (ride.fit)',
    );
  });

  it('gives each reason its key as a stable code', () => {
    expect(reasonCode('Too short to be a run.')).toBe('too_short');
    expect(reasonCode('Not a run (Ride).')).toBe('not_a_run');
    expect(reasonCode('Not a run (unknown sport).')).toBe('not_a_run_unknown');
    expect(reasonCode('The date field is required.')).toBe('field_required');
    expect(reasonCode('The file is not a FIT file. (ride.fit)')).toBe('fit_not_fit');
    expect(reasonCode('Something new.')).toBe('other');
  });
});
