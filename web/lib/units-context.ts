import { createContext } from 'react';
import type { Units } from '../../core/units.js';

/**
 * The signed-in runner's unit (CONTRACT.md §11), provided by the app shell from the current user.
 * A module of its own, without the formatters of `units.ts`, so that the first download stays small.
 */
export const UnitsContext = createContext<Units>('km');
