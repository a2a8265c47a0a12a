import { cleanup } from '@testing-library/react';
import { afterEach } from 'vitest';

/**
 * Testing Library unmounts what a test rendered through an `afterEach` it registers when it is first
 * imported; the SPA's test files share their worker's modules (vitest.config.ts), so that happens in
 * the first file only. Registered here, before every file, each test starts on an empty document.
 * The document's history is shared too: a push of the page it ends on drops the entries a test's
 * Back left ahead (and a Back still pending), so the next test's moves add to the length as counted.
 */
afterEach(() => {
  cleanup();
  // The build's and scripts' tests run in node, without a document.
  if (typeof window !== 'undefined') window.history.pushState(null, '', window.location.href);
});
