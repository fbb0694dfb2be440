/**
 * The screens a signed-in runner's phone opens first and most, each with its module in `app/routes/`
 * and the addresses it answers. The routes (routes.tsx) start loading such a screen with the session
 * check, and ask for its answers; the build (scripts/screen-chunks.ts) puts its modules in a few
 * chunks and writes it a page of its own, `<name>.html`, the app shell with those chunks named in
 * `<link rel="modulepreload">`; the server answers the screen's addresses with it (server/app.ts).
 */
export const FIRST_SCREENS = [
  { name: 'dashboard', route: 'dashboard', path: '^/dashboard$' },
  { name: 'run-page', route: 'entry', path: '^/entry/\\d+$' },
] as const;

export type FirstScreenName = (typeof FIRST_SCREENS)[number]['name'];

/** The first screen whose addresses include `pathname`, or null. */
export function firstScreenAt(pathname: string): FirstScreenName | null {
  return FIRST_SCREENS.find((screen) => new RegExp(screen.path).test(pathname))?.name ?? null;
}
