// The one round trip that returns everything the engine stores about a rendered page.
// Given a selector, it first waits for it in the page (see browser_fetcher.py for why here).
async (arg) => {
  const sel = arg && arg.selector;
  if (sel) {
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const ready = () => { const el = document.querySelector(sel); return !!el && visible(el); };
    let ok;
    try { ok = ready(); } catch (e) { return {badSelector: String(e)}; }
    if (!ok) {
      ok = await new Promise((resolve) => {
        let done = false, obs = null, iv = 0, to = 0;
        const finish = (v) => {
          if (done) return;
          done = true; if (obs) obs.disconnect(); clearInterval(iv); clearTimeout(to); resolve(v);
        };
        const check = () => { if (ready()) finish(true); };
        obs = new MutationObserver(check);
        obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
        iv = setInterval(check, 100);
        to = setTimeout(() => finish(false), arg.timeoutMs);
      });
      if (!ok) return {timedOut: true};
    }
  }
  if (arg && arg.waitOnly) return {ready: true};
  const links = [];
  const seen = new Set();
  for (const a of document.querySelectorAll('a[href]')) {
    const href = a.href;
    if (typeof href !== 'string' || !href.startsWith('http') || seen.has(href)) continue;
    seen.add(href);
    links.push([href, (a.textContent || '').replace(/\s+/g, ' ').trim().slice(0, 200)]);
  }
  const body = document.body;
  return {
    url: location.href,
    title: document.title || '',
    html: document.documentElement ? document.documentElement.outerHTML : '',
    text: body ? body.innerText : '',
    links,
  };
}
