/**
 * Helpers the schema files share that are not part of the API contract: `core/schemas.ts`
 * does not re-export this file.
 */

export const isMissing = (input: unknown) => input === undefined || input === null;

export const brokenText = (field: string) => `The ${field} contains a broken character; please type it again.`;
