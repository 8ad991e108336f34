// jsdom lacks TextEncoder/TextDecoder, which react-router needs (else: "TextEncoder is not defined").
const { TextEncoder, TextDecoder } = require('node:util');
Object.assign(globalThis, { TextEncoder, TextDecoder });

// jsdom has no layout: scrolling is a no-op we can observe, media queries never match unless a test says so.
window.scrollTo = jest.fn();
if (!window.matchMedia) {
  window.matchMedia = (query) => ({
    matches: false,
    media: query,
    onchange: null,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    addListener: () => undefined,
    removeListener: () => undefined,
    dispatchEvent: () => false,
  });
}

// jsdom's <dialog> has no showModal/close; the browser tests cover the real inert behaviour.
if (typeof HTMLDialogElement !== 'undefined' && !HTMLDialogElement.prototype.showModal) {
  HTMLDialogElement.prototype.showModal = function showModal() {
    this.setAttribute('open', '');
  };
  HTMLDialogElement.prototype.close = function close() {
    this.removeAttribute('open');
  };
}

// jsdom has no fetch Request; react-router builds one per navigation to carry the URL and abort signal
// to loaders (this app has none), so a minimal stand-in is enough.
if (typeof globalThis.Request === 'undefined') {
  globalThis.Request = class Request {
    constructor(input, init = {}) {
      this.url = String(input);
      this.method = (init.method || 'GET').toUpperCase();
      this.signal = init.signal || new AbortController().signal;
      this.headers = new Headers(init.headers || {});
      this.body = init.body || null;
    }
  };
}
if (typeof globalThis.Headers === 'undefined') {
  globalThis.Headers = class Headers extends Map {};
}

// Pages arrive as lazy chunks: the first render of a page waits for its modules to be compiled and loaded,
// which on a busy machine takes longer than Testing Library's default one second for findBy* queries.
require('@testing-library/dom').configure({ asyncUtilTimeout: 15000 });
