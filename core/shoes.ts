/** Shoes (CONTRACT.md §11): the API's schemas and the shoe rules the web app shows too. */
import { z } from 'zod';
import { blankToUndefined, clearable, DECIMAL_RE, hasNoControlCharacters, requiredText, toNumber } from './schemas.js';

export const DEFAULT_SHOE_LIMIT_KM = 700;
export const MAX_SHOE_LIMIT_KM = 100_000;
/** The most distance a shoe may have had before it was tracked here. */
export const MAX_SHOE_START_KM = 10_000;
export const MAX_SHOE_TEXT = 100;
/** The most shoes one runner may have. */
export const MAX_SHOES = 100;
export const TOO_MANY_SHOES = `You can have at most ${MAX_SHOES} shoes.`;
export const RETIRED_NOT_DEFAULT = 'A retired shoe cannot be the default shoe.';

/** A distance in km of a shoe: a number up to `max`, at most 3 decimals, above 0 (or from 0 with `zero`). */
function kmField(field: string, max: number, zero: boolean) {
  return z.preprocess(
    toNumber(DECIMAL_RE),
    z
      .number({ error: `The ${field} must be a number.` })
      .refine(Number.isFinite, `The ${field} must be a number.`)
      .refine(
        (km) => (zero ? km >= 0 : km > 0),
        zero ? `The ${field} must be at least 0.` : `The ${field} must be greater than 0.`,
      )
      .refine((km) => km <= max, `The ${field} must not be greater than ${max}.`)
      .refine((km) => Math.abs(Math.round(km * 1000) - km * 1000) < 1e-6, `The ${field} must have at most 3 decimals.`),
  );
}

const limitField = kmField('limit_km', MAX_SHOE_LIMIT_KM, false);
const startField = kmField('start_km', MAX_SHOE_START_KM, true);

/** true/false, also as the strings and numbers a form sends. */
function flag(field: string) {
  return z.preprocess(
    (value) => {
      const text = blankToUndefined(value);
      if (text === 'true' || text === '1' || text === 1 || text === 'on') return true;
      if (text === 'false' || text === '0' || text === 0 || text === 'off') return false;
      return text;
    },
    z.boolean({ error: `The ${field} field must be true or false.` }).optional(),
  );
}

const brandField = clearable(
  z
    .string({ error: 'The brand must be a string.' })
    .trim()
    .max(MAX_SHOE_TEXT, `The brand must not be greater than ${MAX_SHOE_TEXT} characters.`)
    .refine(hasNoControlCharacters, 'The brand must not contain control characters.'),
  'The brand must be a string.',
);

const shoeFields = {
  name: requiredText('name', MAX_SHOE_TEXT),
  brand: brandField,
  limit_km: limitField.optional(),
  start_km: startField.optional(),
  retired: flag('retired'),
  is_default: flag('is_default'),
};

function retiredIsNotDefault(value: { retired?: boolean; is_default?: boolean }, ctx: z.RefinementCtx) {
  if (value.retired === true && value.is_default === true) {
    ctx.addIssue({ code: 'custom', path: ['is_default'], message: RETIRED_NOT_DEFAULT });
  }
}

export const ShoeBodySchema = z.object(shoeFields).superRefine(retiredIsNotDefault);
export type ShoeBody = z.infer<typeof ShoeBodySchema>;

/** An update changes only the fields it is given. */
export const ShoeUpdateBodySchema = z
  .object({ ...shoeFields, name: shoeFields.name.optional() })
  .superRefine(retiredIsNotDefault);
export type ShoeUpdateBody = z.infer<typeof ShoeUpdateBodySchema>;

export const ShoeSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  brand: z.string().nullable(),
  limit_km: z.number(),
  start_km: z.number().describe('km the shoe had run before it was tracked here'),
  retired: z.boolean(),
  is_default: z.boolean(),
  distance: z.number().describe('start_km plus the km of the runs that name the shoe'),
  runs: z.number().int(),
  over_limit: z.boolean().describe('distance > limit_km'),
  created_at: z.string(),
});
export type Shoe = z.infer<typeof ShoeSchema>;

export const ShoeEnvelopeSchema = z.object({ shoe: ShoeSchema });
export const ShoesEnvelopeSchema = z.object({ shoes: z.array(ShoeSchema) });
