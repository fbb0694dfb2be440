import '@testing-library/jest-dom/vitest';
import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';
import { toasts } from '../components/toast/toast-store';

afterEach(() => {
  cleanup();
  toasts.clear();
  window.localStorage.clear();
});
