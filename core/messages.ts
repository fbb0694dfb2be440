/**
 * Rules and messages of the API's validation (core/schemas.ts) that the web app's forms check before
 * sending, so that a client check says what the server would. Plain constants: the login and registration
 * screens import them at runtime, and zod must not come with them (web/app/first-load.test.ts).
 */

/**
 * What counts as an e-mail address: a local part and a domain of dot-separated labels, none
 * empty, and none of the characters that cannot appear unquoted in an address (spaces, `<>()[]\,;:"@`).
 */
export const EMAIL_PATTERN = /^[^\s@<>()[\]\\,;:"]+@[^\s@<>()[\]\\,;:".]+(\.[^\s@<>()[\]\\,;:".]+)+$/;

/** The shortest password accepted. */
export const PASSWORD_MIN_LENGTH = 8;

/** A field that is missing or blank, e.g. `The email field is required.` */
export const requiredMessage = (field: string) => `The ${field} field is required.`;

export const INVALID_EMAIL_MESSAGE = 'The email must be a valid email address.';
export const PASSWORD_MISMATCH_MESSAGE = 'The password confirmation does not match.';
export const DISTANCE_NOT_POSITIVE_MESSAGE = 'The distance must be greater than 0.';
export const TIME_NOT_POSITIVE_MESSAGE = 'The time must be greater than 00:00:00.';

/** The fastest a run may be: no human runs faster. */
export const MAX_SPEED_KMH = 50;
export const SPEED_TOO_HIGH_MESSAGE = `The distance and time give a speed over ${MAX_SPEED_KMH} km/h; please check them.`;

/**
 * Speeds a run is rarely saved at on purpose (km/h): the web forms ask "Are you sure?" outside
 * them before saving. A typo ("4,2" read as 42) is far more likely than a 26 km/h run.
 */
export const USUAL_SPEED_KMH = { min: 3, max: 25 } as const;
export const DISTANCE_NOT_A_NUMBER_MESSAGE = 'The distance must be a number.';
export const TIME_PARTS_MESSAGE = 'Hours must be 00-99, minutes and seconds 00-59, in digits.';
