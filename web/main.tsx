import 'bootstrap/dist/css/bootstrap.min.css';
import './styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/app';
import { startLanguage } from './i18n/runtime';

const container = document.getElementById('root');
if (!container) throw new Error('The page has no #root element.');

// The first screen's language (CONTRACT.md §19) before anything renders; a signed-in user's `locale` follows.
startLanguage();

// The installable app's service worker (decision 047), once the page has loaded: it takes nothing
// from the first load, and the worker's precaching competes with nothing the first screen needs.
if (import.meta.env.PROD && 'serviceWorker' in navigator) {
  window.addEventListener('load', () => void navigator.serviceWorker.register('/sw.js').catch(() => undefined));
}

createRoot(container).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
