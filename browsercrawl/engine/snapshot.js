// The one round trip that returns everything the engine stores about a rendered page.
// Given a selector, it first waits for it in the page (see browser_fetcher.py for why here).
// Given `settle`, it first waits until the page is done (see settle.py): no fetch/XHR in flight,
// no short timer pending and no poll going on (as counted by page_watch.js), the load event
// passed and the DOM quiet for a short window - or, once the URL's shape has been learned, until the element that
// appears last on such pages is there and no request is in flight. Either way under a cap.
async (arg) => {
  const W = window.__bcWatch;
  const now = () => performance.now();
  const sleep = W ? W.sleep : (ms) => new Promise((r) => setTimeout(r, ms));
  const sel = arg && arg.selector;
  const t0 = now();
  if (sel) {
    try { document.querySelector(sel); } catch (e) { return {badSelector: String(e)}; }
  }
  // Sent as soon as the document committed (browser_fetcher.py): first the goto's own wait,
  // DOMContentLoaded ('interactive') or the load event ('complete'), here in the page.
  const want = arg && arg.readyState;
  const reached = () => document.readyState === 'complete'
    || (want === 'interactive' && document.readyState === 'interactive');
  if (want && !reached()) {
    const ok = await new Promise((resolve) => {
      if (want === 'complete') window.addEventListener('load', () => resolve(true), {once: true});
      else document.addEventListener('DOMContentLoaded', () => resolve(true), {once: true});
      sleep(arg.timeoutMs).then(() => resolve(reached()));
    });
    if (!ok) return {timedOut: true, readyState: document.readyState};
  }
  if (sel) {
    const visible = (el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.height > 0 && getComputedStyle(el).visibility !== 'hidden';
    };
    const ready = () => { const el = document.querySelector(sel); return !!el && visible(el); };
    let ok = ready();
    if (!ok) {
      ok = await new Promise((resolve) => {
        let done = false, obs = null, iv = 0;
        const finish = (v) => {
          if (done) return;
          done = true; if (obs) obs.disconnect(); clearInterval(iv); resolve(v);
        };
        const check = () => { if (ready()) finish(true); };
        obs = new MutationObserver(check);
        obs.observe(document, {subtree: true, childList: true, attributes: true, characterData: true});
        iv = setInterval(check, 100);
        sleep(Math.max(0, arg.timeoutMs - (now() - t0))).then(() => finish(false));
      });
      if (!ok) return {timedOut: true};
    }
  }
  let settled = null;
  if (arg && arg.settle) settled = await settle(arg.settle);
  if (arg && arg.waitOnly) return {ready: true, settled};
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
    inflight: W ? W.requests.size : null,
    timers: W ? W.timers.size : null,
    settled,
  };

  async function settle(o) {
    const t0 = now();
    const end = t0 + o.capMs;
    let local = null;  // no page_watch.js in this document (it was not installed in time)
    if (!W) {
      local = {lastMut: now()};
      new MutationObserver(() => { local.lastMut = now(); })
        .observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
    }
    const fresh = () => {
      if (!W) return 0;
      let n = 0;
      const t = now();
      for (const s of W.requests.values()) if (o.requestCapMs == null || t - s < o.requestCapMs) n++;
      return n;
    };
    // A URL requested three times or more, the last time within twice its period (at least a
    // second): the page polls, and a pause between two polls is not the page being done.
    const polling = (t) => {
      if (!W) return false;
      for (const u of W.urls.values()) {
        if (u.n >= 3 && t - u.last < Math.max(1000, 2 * (u.last - u.first) / (u.n - 1))) return true;
      }
      return false;
    };
    let learned = o.selector || null;
    let by = 'cap', missed = false;
    for (;;) {
      const t = now();
      if (learned) {
        let hit = false;
        try { hit = !!document.querySelector(learned); } catch (e) { learned = null; missed = true; }
        if (hit && fresh() === 0) { by = 'learned'; break; }
        if (t > o.giveUpAt) { learned = null; missed = true; }
      }
      if (!learned && document.readyState === 'complete' && fresh() === 0 && (!W || W.timers.size === 0)) {
        // Quiet since the load event at least (a script's first timer or request may come later).
        const last = W ? Math.max(W.lastMut, W.lastNet, W.lastTimer, W.loaded) : Math.max(local.lastMut, t0);
        if (t - last >= o.quietMs && !polling(t)) { by = 'quiet'; break; }
      }
      if (t >= end) break;
      await sleep(20);
    }
    const t = now();
    const out = {by, missed, waited_ms: Math.round(t - t0), inflight: W ? W.requests.size : 0,
      timers: W ? W.timers.size : 0, done: by !== 'cap' && (!W || W.requests.size === 0),
      content_ms: W ? Math.round(W.lastContent) : null, last: []};
    if (o.learn && W && out.done) out.last = lastElements(W);
    return out;
  }

  // Selectors for the elements added in the page's last burst of DOM changes, last in document
  // order first; only selectors that match nothing older (so "it is there" means "the burst came").
  function lastElements(w) {
    const BURST_MS = 100, MAX = 60;
    const roots = w.added.filter(([el, t]) => t >= w.lastContent - BURST_MS && el.isConnected)
      .map(([el]) => el);
    if (!roots.length) return [];
    const inBurst = (el) => roots.some((r) => r === el || r.contains(el));
    const els = [];
    for (const r of roots) {
      els.push(r);
      for (const d of r.querySelectorAll('*')) { if (els.length >= MAX) break; els.push(d); }
      if (els.length >= MAX) break;
    }
    els.sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? 1 : -1));
    const word = /^[A-Za-z][A-Za-z_-]*$/;
    const part = (el) => {
      if (el.id && word.test(el.id)) return '#' + CSS.escape(el.id);
      let s = CSS.escape(el.localName);
      for (const c of el.classList) if (word.test(c)) s += '.' + CSS.escape(c);
      return s;
    };
    const path = (el) => {
      const bits = [];
      for (let e = el; e && e.nodeType === 1 && bits.length < 6; e = e.parentElement) {
        const p = part(e);
        bits.unshift(p);
        if (p[0] === '#' || e === document.body) break;
      }
      return bits.join(' > ');
    };
    const out = [];
    for (const el of els) {
      if (['script', 'style', 'link', 'meta', 'br', 'template'].includes(el.localName)) continue;
      const s = path(el);
      if (out.includes(s)) continue;
      let ok = true;
      try { for (const m of document.querySelectorAll(s)) if (!inBurst(m)) { ok = false; break; } }
      catch (e) { ok = false; }
      if (ok) out.push(s);
      if (out.length >= 12) break;
    }
    return out;
  }
}
