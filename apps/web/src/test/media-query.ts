import { vi } from 'vitest';

/** A `MediaQueryList` that answers `matches` for `query` (jsdom has no media queries). */
export function fakeMediaQueryList(query: string, matches: boolean): MediaQueryList {
  return {
    matches,
    media: query,
    onchange: null,
    addListener: vi.fn(),
    removeListener: vi.fn(),
    addEventListener: vi.fn(),
    removeEventListener: vi.fn(),
    dispatchEvent: vi.fn(),
  };
}

/** A desktop-wide window for the test: every width query matches (tables show all their columns). */
export function stubDesktopWidth() {
  vi.spyOn(window, 'matchMedia').mockImplementation((query) =>
    fakeMediaQueryList(query, !query.includes('prefers-')),
  );
}
