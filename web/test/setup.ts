import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toasts } from '../components/toast/toast-store';

// A screen's first render waits for its lazy chunk and its catalogs: on a busy two-core machine that can
// take longer than Testing Library's default second, which failed tests that were right.
configure({ asyncUtilTimeout: 5000 });

// jsdom does not scroll; screens reset the scroll position when they open.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  toasts.clear();
  window.localStorage.clear();
});
