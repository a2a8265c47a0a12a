import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/**
 * Testing Library unmounts what a test rendered through an `afterEach` it registers when it is first
 * imported; the SPA's test files share their worker's modules (vitest.config.ts), so that happens in
 * the first file only. Registered here, before every file, each test starts on an empty document.
 */
afterEach(() => {
  cleanup();
});
