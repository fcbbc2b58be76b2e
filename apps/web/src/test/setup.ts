import '@testing-library/jest-dom/vitest';
import { cleanup, configure } from '@testing-library/react';
import { afterEach, vi } from 'vitest';
import { i18n, loadAllNamespaces, loadLanguage } from '../lib/i18n';
import { fakeMediaQueryList } from './media-query';

// The app loads its strings on demand (lib/i18n); tests have every namespace of both languages from the start.
await loadLanguage('fr');
await loadAllNamespaces();
await i18n.loadLanguages('en');

// Lazy route chunks are transformed on first use (the first test of a file to open the dashboard pays for its
// whole module graph, several seconds on the 2-core CI machine running two files at once): allow for it.
configure({ asyncUtilTimeout: 15_000 });

afterEach(() => {
  cleanup();
  localStorage.clear();
  sessionStorage.clear();
});

// jsdom lacks these browser APIs that Mantine uses.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: vi.fn().mockImplementation((query: string) => fakeMediaQueryList(query, false)),
  });
}

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}
if (!('ResizeObserver' in window)) {
  Object.defineProperty(window, 'ResizeObserver', { writable: true, value: ResizeObserverStub });
}
Object.defineProperty(window.HTMLElement.prototype, 'scrollIntoView', { writable: true, value: vi.fn() });

// jsdom has no FontFaceSet: Mantine's autosize Textarea listens to it.
if (!('fonts' in document)) {
  Object.defineProperty(document, 'fonts', {
    writable: true,
    value: { addEventListener: vi.fn(), removeEventListener: vi.fn(), ready: Promise.resolve() },
  });
}
