/**
 * Draws the web app's install icons (decision 047) from its logo, web/public/favicon.svg, with the
 * system's Chromium (the browser the journeys use), so no image tool or download is needed:
 * icon-192.png and icon-512.png as the logo is (rounded, transparent corners), and
 * icon-maskable-512.png with the background to the edges and the mark inside the safe zone (the
 * middle 80%) that a phone's mask keeps. Run again after the logo changes: `npx tsx scripts/pwa-icons.ts`.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { launchBrowser } from '../e2e/support/browser.js';

const PUBLIC = path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'web', 'public');
const logo = fs.readFileSync(path.join(PUBLIC, 'favicon.svg'), 'utf8');
const background = /<rect[^>]*fill="([^"]+)"/.exec(logo)?.[1] ?? '#212529';
const mark = /<path[^>]*\/>/.exec(logo)?.[0] ?? '';
// The mark scaled about the middle to 62%: its farthest point stays inside the safe zone's circle.
const maskable =
  `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" fill="${background}"/>` +
  `<g transform="translate(16 16) scale(0.62) translate(-16 -16)">${mark}</g></svg>`;

const icons = [
  { file: 'icon-192.png', size: 192, svg: logo },
  { file: 'icon-512.png', size: 512, svg: logo },
  { file: 'icon-maskable-512.png', size: 512, svg: maskable },
];

const browser = await launchBrowser();
try {
  for (const icon of icons) {
    const page = await browser.newPage({ viewport: { width: icon.size, height: icon.size } });
    const svg = icon.svg.replace('<svg ', `<svg width="${icon.size}" height="${icon.size}" `);
    await page.setContent(`<html><body style="margin:0;background:transparent">${svg}</body></html>`);
    await page.screenshot({ path: path.join(PUBLIC, icon.file), omitBackground: true });
    await page.close();
    console.log(`web/public/${icon.file} (${icon.size}x${icon.size})`);
  }
} finally {
  await browser.close();
}
