import path from 'node:path';
import purgeCssModule from '@fullhuman/postcss-purgecss';
import type { Plugin } from 'postcss';

// The package's types describe its ES module; Node loads its CommonJS build, whose export is the plugin.
const purgeCss = purgeCssModule as unknown as typeof purgeCssModule.default;

const ROOT = path.resolve(import.meta.dirname, '..', 'web');

/**
 * Bootstrap's stylesheet with only the rules whose classes, elements and attributes the web app
 * names somewhere in its code (PurgeCSS, decision 056). The whole stylesheet is 23 KiB of the
 * 24 KiB of CSS every page waits for before it paints, of which a screen uses about 2 KiB; on
 * Lighthouse's phone it came with the entry chunk over the same slow network, and the browser
 * matched every element against all of its rules (a third of the dashboard's first layout).
 * Our own styles (web/styles.css) and the map library's are left as they are. The code names each
 * class whole (`'btn-danger'`, never `` `btn-${tone}` ``): bootstrap-in-use.test.ts holds it to that.
 */
export function bootstrapInUse(): Plugin {
  const purge = purgeCss({
    content: [path.join(ROOT, '**', '*.{ts,tsx,html}'), path.join(ROOT, 'public', 'theme.js')],
  }) as Plugin;
  return {
    postcssPlugin: 'bootstrap-in-use',
    OnceExit(root, helpers) {
      if (!root.source?.input.file?.includes(`${path.sep}bootstrap${path.sep}dist${path.sep}css${path.sep}`)) return;
      return (purge.OnceExit as NonNullable<Plugin['OnceExit']>)(root, helpers);
    },
  };
}
