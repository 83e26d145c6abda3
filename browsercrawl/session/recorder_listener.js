// Injected into every document while recording a login; see browsercrawl/session/recorder.py.
(() => {
  if (window.__bcRecorderInstalled) return;
  window.__bcRecorderInstalled = true;
  const report = (step) => { try { window.__bcRecord(step); } catch (e) {} };
  const vis = e => !!(e.offsetWidth || e.offsetHeight || e.getClientRects().length);
  const cssEsc = s => (window.CSS && CSS.escape) ? CSS.escape(s) : s;
  const captchaWords = /captcha|security code|verification code|characters in|code in the image/i;
  function labelOf(e) {
    if (e.labels && e.labels.length) return e.labels[0].innerText.trim();
    return (e.getAttribute('aria-label') || '').trim();
  }
  function roleOf(e) {
    const t = e.tagName, type = (e.getAttribute('type') || '').toLowerCase();
    if (e.getAttribute('role')) return e.getAttribute('role');
    if (t === 'A' && e.hasAttribute('href')) return 'link';
    if (t === 'BUTTON' || (t === 'INPUT' && ['submit', 'button', 'image', 'reset'].includes(type))) return 'button';
    if (t === 'SELECT') return 'combobox';
    if (t === 'TEXTAREA') return 'textbox';
    if (t === 'INPUT' && type === 'checkbox') return 'checkbox';
    if (t === 'INPUT' && type === 'radio') return 'radio';
    if (t === 'INPUT' && ['', 'text', 'email', 'tel', 'search', 'url', 'number'].includes(type)) return 'textbox';
    return null;
  }
  function cssPath(e) {
    if (e.id && /^[A-Za-z][\w-]*$/.test(e.id)) return '#' + cssEsc(e.id);
    const parts = [];
    for (let n = e; n && n.nodeType === 1 && n !== document.documentElement; n = n.parentElement) {
      if (n.id && /^[A-Za-z][\w-]*$/.test(n.id)) { parts.unshift('#' + cssEsc(n.id)); break; }
      let sel = n.tagName.toLowerCase();
      const sibs = n.parentElement ? [...n.parentElement.children].filter(c => c.tagName === n.tagName) : [];
      if (sibs.length > 1) sel += `:nth-of-type(${sibs.indexOf(n) + 1})`;
      parts.unshift(sel);
    }
    return parts.join(' > ');
  }
  function describe(e) {
    const t = {};
    const tid = e.getAttribute('data-testid') || e.getAttribute('data-test-id');
    if (tid) t.testid = tid;
    if (e.id && !/\d{5,}|^[0-9a-f]{8,}$/i.test(e.id)) t.id = e.id;
    if (e.getAttribute('name')) t.name = e.getAttribute('name');
    const lab = labelOf(e);
    if (lab) t.label = lab.slice(0, 80);
    const role = (e.getAttribute('type') || '').toLowerCase() === 'password' ? null : roleOf(e);
    if (role) {
      t.role = role;
      let nm = lab;
      if (!nm && (role === 'button' || role === 'link'))
        nm = (e.innerText || e.value || e.getAttribute('title') || '').trim();
      if (nm) t.role_name = nm.slice(0, 80);
    }
    if (e.getAttribute('placeholder')) t.placeholder = e.getAttribute('placeholder');
    if ((role === 'button' || role === 'link') && (e.innerText || '').trim())
      t.text = e.innerText.trim().slice(0, 80);
    t.css = cssPath(e);
    return t;
  }
  function words(e) {
    return [e.name, e.id, e.getAttribute('autocomplete'), e.getAttribute('placeholder'), labelOf(e)].join(' ');
  }
  function captchaImageFor(input) {
    const scope = input.form || document;
    return [...scope.querySelectorAll('img, canvas')].find(i => vis(i) &&
      /captcha/i.test([i.getAttribute('src'), i.id, i.alt, i.className].join(' '))) || null;
  }
  function imageData(img) {
    try {
      if (img.tagName === 'CANVAS') return img.toDataURL('image/png');
      const c = document.createElement('canvas');
      c.width = img.naturalWidth || img.width; c.height = img.naturalHeight || img.height;
      c.getContext('2d').drawImage(img, 0, 0);
      return c.toDataURL('image/png');
    } catch (e) { return null; }
  }
  function refreshNear(img) {
    const scope = img.parentElement || document;
    const r = [...scope.querySelectorAll('a, button')].find(b =>
      /new|refresh|reload|another|different/i.test((b.innerText || '') + ' ' + (b.id || '')));
    return r ? describe(r) : null;
  }
  const isPassword = e => e.tagName === 'INPUT' && (e.getAttribute('type') || '').toLowerCase() === 'password';
  function userField(e) {
    if (!e.form || e.tagName !== 'INPUT' || isPassword(e)) return false;
    return !!e.form.querySelector('input[type=password]') && roleOf(e) === 'textbox';
  }
  const lastValue = new WeakMap();
  function reportValue(e) {
    const type = (e.getAttribute('type') || '').toLowerCase();
    if (e.tagName === 'SELECT') { report({action: 'select', target: describe(e), value: e.value}); return; }
    if (type === 'checkbox' || type === 'radio') {
      report({action: e.checked ? 'check' : 'uncheck', target: describe(e)}); return;
    }
    if (!['INPUT', 'TEXTAREA'].includes(e.tagName) || ['submit', 'button', 'image', 'hidden'].includes(type)) return;
    if (lastValue.get(e) === e.value) return;
    lastValue.set(e, e.value);
    if (isPassword(e)) { report({action: 'fill', target: describe(e), field: 'password', secret: true}); return; }
    // a one-time code is useless later and is never written down: replay makes a fresh one
    if ((e.getAttribute('autocomplete') || '').includes('one-time-code') ||
        /\botp\b|totp|one.?time|2fa|two.?factor|authenticat/.test(words(e))) {
      report({action: 'totp', target: describe(e), secret: true}); return;
    }
    const img = captchaWords.test(words(e)) ? captchaImageFor(e) : null;
    if (img) {
      report({action: 'captcha', image: describe(img), input: describe(e), refresh: refreshNear(img),
              answer: e.value, image_data: imageData(img)});
      return;
    }
    report({action: 'fill', target: describe(e), value: e.value, field: userField(e) ? 'username' : null});
  }
  document.addEventListener('change', ev => reportValue(ev.target), true);
  document.addEventListener('keydown', ev => {
    const e = ev.target;
    if (ev.key === 'Enter' && e && e.tagName === 'INPUT') {
      reportValue(e);
      report({action: 'press', target: describe(e), key: 'Enter'});
    }
  }, true);
  document.addEventListener('click', ev => {
    const e = ev.target && ev.target.closest &&
      ev.target.closest('button, a[href], input[type=submit], input[type=button], input[type=image], [role=button]');
    if (!e) return;
    // the field being typed in reports its value before the click (its change event may come later)
    const active = document.activeElement;
    if (active && active !== e && ['INPUT', 'TEXTAREA'].includes(active.tagName)) reportValue(active);
    report({action: 'click', target: describe(e)});
  }, true);
})();
