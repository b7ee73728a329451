// The feedback widget's loader (docs/widget.md): the one script a host page includes. No framework,
// nothing inline (it sets styles through the CSSOM, which a strict style-src allows), and nothing
// else fetched until the trigger is used: then it frames the panel, on the feedback server's
// origin. Messages go to that origin only, and only the panel's frame is listened to.
(function () {
  'use strict';
  var script = document.currentScript;
  var loaderUrl = script && script.src;

  function css(element, styles) {
    for (var name in styles) element.style[name] = styles[name];
  }

  function mount(options) {
    var server = new URL(options.server || loaderUrl).origin;
    var label = options.label || 'Feedback';
    var box, frame, ready = false, opened = false;
    var trigger = typeof options.trigger === 'string' ? document.querySelector(options.trigger) : options.trigger;
    var own = !trigger;
    if (own) {
      // The floating button: fixed, so the host page's layout does not move when it appears.
      trigger = document.createElement('button');
      trigger.type = 'button';
      trigger.textContent = label;
      css(trigger, { position: 'fixed', insetBlockEnd: '20px', insetInlineEnd: '20px', zIndex: '2147483000', font: '600 15px system-ui, sans-serif', padding: '10px 18px', border: '0', borderRadius: '22px', background: options.color || '#0b5cad', color: '#fff', cursor: 'pointer', boxShadow: '0 2px 10px rgba(0,0,0,.3)' });
      document.body.appendChild(trigger);
    }
    trigger.setAttribute('aria-haspopup', 'dialog');
    trigger.setAttribute('aria-expanded', 'false');

    function token() {
      if (typeof options.token === 'function') return Promise.resolve(options.token());
      if (typeof options.token === 'string') return Promise.resolve(options.token);
      if (!options.tokenUrl) return Promise.resolve('');
      // The host's own endpoint, which signs its signed-in user's token (its cookies, its origin).
      return fetch(options.tokenUrl, { credentials: 'same-origin' }).then(function (response) {
        return response.ok ? response.text() : '';
      }).then(function (text) {
        try { return JSON.parse(text).token || ''; } catch (error) { return text.trim(); }
      });
    }
    function sendToken() {
      token().then(function (value) {
        if (value && frame) frame.contentWindow.postMessage({ type: 'feedback:token', token: value }, server);
      }, function () {});
    }
    function build() {
      box = document.createElement('div');
      box.setAttribute('role', 'dialog');
      box.setAttribute('aria-label', label);
      css(box, { position: 'fixed', insetBlockEnd: '76px', insetInlineEnd: '20px', zIndex: '2147483001', inlineSize: 'min(420px, calc(100vw - 40px))', blockSize: 'min(640px, calc(100vh - 110px))', borderRadius: '10px', overflow: 'hidden', boxShadow: '0 8px 30px rgba(0,0,0,.35)', background: options.theme === 'dark' ? '#0d1117' : '#fff' });
      frame = document.createElement('iframe');
      var query = new URLSearchParams({ origin: location.origin });
      if (options.theme) query.set('theme', options.theme);
      if (options.locale) query.set('lang', options.locale);
      frame.src = server + '/w/' + encodeURIComponent(options.project) + '?' + query;
      frame.title = options.title || label;
      css(frame, { border: '0', inlineSize: '100%', blockSize: '100%', display: 'block' });
      box.appendChild(frame);
      document.body.appendChild(box);
    }
    function open() {
      if (!box) build();
      box.style.display = 'block';
      opened = true;
      trigger.setAttribute('aria-expanded', 'true');
      frame.focus();
      if (ready) frame.contentWindow.postMessage({ type: 'feedback:focus' }, server);
    }
    function close() {
      if (!opened) return;
      box.style.display = 'none';
      opened = false;
      trigger.setAttribute('aria-expanded', 'false');
      trigger.focus();
    }
    function onMessage(event) {
      if (!frame || event.source !== frame.contentWindow || event.origin !== server || !event.data) return;
      var type = event.data.type;
      if (type === 'feedback:ready') {
        ready = true;
        sendToken();
        if (opened) frame.contentWindow.postMessage({ type: 'feedback:focus' }, server);
      }
      if (type === 'feedback:token-needed') sendToken();
      if (type === 'feedback:close') close();
    }
    function onKey(event) {
      if (event.key === 'Escape' && opened) close();
    }
    function onClick() {
      if (opened) close(); else open();
    }
    trigger.addEventListener('click', onClick);
    window.addEventListener('message', onMessage);
    document.addEventListener('keydown', onKey);
    return {
      open: open,
      close: close,
      destroy: function () {
        close();
        trigger.removeEventListener('click', onClick);
        window.removeEventListener('message', onMessage);
        document.removeEventListener('keydown', onKey);
        if (own) trigger.remove();
        if (box) box.remove();
      },
    };
  }

  window.FeedbackWidget = { mount: mount };
  var data = script && script.dataset;
  if (data && data.project) {
    var start = function () {
      mount({ project: data.project, tokenUrl: data.tokenUrl, trigger: data.trigger, theme: data.theme, locale: data.locale, label: data.label, color: data.color });
    };
    if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start); else start();
  }
})();
