import { expect } from 'chai';
import { mountWidget, type WidgetOptions } from '@feedbackd/sdk/widget';

/** `@feedbackd/sdk/widget` in a stand-in for a browser: it adds the server's loader once, then mounts with the options. */
describe('sdk widget', () => {
  const global = globalThis as Record<string, unknown>;
  afterEach(() => {
    delete global.document;
    delete global.FeedbackWidget;
  });

  it('when mountWidget is called twice, then the loader is added once from the server and each call mounts with its options, the server as an origin', async () => {
    const added: string[] = [];
    const mounted: unknown[] = [];
    const handle = { open() {}, close() {}, destroy() {} };
    global.document = {
      createElement: () => ({ src: '', async: false, onload: null as (() => void) | null, onerror: null }),
      head: {
        appendChild(script: { src: string; onload: () => void }) {
          added.push(script.src);
          global.FeedbackWidget = { mount: (options: unknown) => (mounted.push(options), handle) };
          setImmediate(() => script.onload());
        },
      },
    };
    const options: WidgetOptions = { serverUrl: 'https://feedback.example.com/some/path', project: 'acme', theme: 'dark', tokenUrl: '/feedback-token' };
    expect(await mountWidget(options)).to.equal(handle);
    await mountWidget({ ...options, project: 'other' });
    expect(added).to.deep.equal(['https://feedback.example.com/w/loader.js']);
    expect(mounted).to.deep.equal([
      { project: 'acme', theme: 'dark', tokenUrl: '/feedback-token', server: 'https://feedback.example.com' },
      { project: 'other', theme: 'dark', tokenUrl: '/feedback-token', server: 'https://feedback.example.com' },
    ]);
  });
});
