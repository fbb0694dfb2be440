import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toasts } from '../components/toast/toast-store';

// jsdom does not scroll; screens reset the scroll position when they open.
window.scrollTo = () => {};

afterEach(() => {
  cleanup();
  toasts.clear();
  window.localStorage.clear();
});
