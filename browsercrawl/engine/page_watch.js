// Installed in every tab before the page's own scripts (page.add_init_script): it keeps, for the
// snapshot's wait (snapshot.js), what a page still has under way. Why before the page's scripts:
// a fetch started by the page while it loads is invisible to a wrapper installed afterwards.
//   - fetch/XHR in flight, each with its start time (a request older than the cap stops holding
//     the wait but still marks the page unfinished), and how often each URL was asked for;
//   - short timers pending (setTimeout up to TIMER_MAX_MS; a timer armed from a timer's callback
//     counts only for a few generations, so an animation or polling loop does not hold the wait;
//     an interval until its first tick), and when the load event came;
//   - after DOMContentLoaded, when the DOM last changed and which elements were added when, so
//     the wait can tell which element of a page appears last.
(() => {
  if (window.__bcWatch) return;
  const TIMER_MAX_MS = 3000;
  const TIMER_GENERATIONS = 2;
  const KEEP_ADDED = 400;
  const now = () => performance.now();
  const w = {requests: new Map(), nextReq: 1, lastNet: 0, timers: new Set(), lastTimer: 0,
    lastMut: 0, lastContent: 0, added: [], observing: false, gen: 0, intervals: new Map(), loaded: 0,
    urls: new Map()};
  Object.defineProperty(window, '__bcWatch', {value: w, enumerable: false});
  // The wait's own sleeps must not count as the page's timers.
  w.sleep = (ms) => new Promise((resolve) => origSetTimeout.call(window, resolve, ms));

  // Per URL: how often and when it was requested (a URL asked for again and again is a poll).
  const begin = (url) => {
    const id = w.nextReq++, t = now();
    w.requests.set(id, t); w.lastNet = t;
    const key = String(url).split('#')[0];
    const seen = w.urls.get(key);
    if (seen) { seen.n++; seen.last = t; } else if (w.urls.size < 500) w.urls.set(key, {n: 1, first: t, last: t});
    return id;
  };
  const end = (id) => { w.requests.delete(id); w.lastNet = now(); };

  const origFetch = window.fetch;
  if (typeof origFetch === 'function') {
    window.fetch = function fetch(input) {
      const id = begin((input && input.url) || input);
      let p;
      try { p = origFetch.apply(this, arguments); } catch (e) { end(id); throw e; }
      Promise.resolve(p).then(() => end(id), () => end(id));
      return p;
    };
  }
  const X = window.XMLHttpRequest && XMLHttpRequest.prototype;
  if (X) {
    const origOpen = X.open, origSend = X.send;
    X.open = function open(method, url) {
      this.__bcUrl = url;
      return origOpen.apply(this, arguments);
    };
    X.send = function send() {
      const id = begin(this.__bcUrl);
      this.addEventListener('loadend', () => end(id), {once: true});
      try { return origSend.apply(this, arguments); } catch (e) { end(id); throw e; }
    };
  }

  const origSetTimeout = window.setTimeout, origClearTimeout = window.clearTimeout;
  window.setTimeout = function setTimeout(cb, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (typeof cb !== 'function' || ms > TIMER_MAX_MS || w.gen >= TIMER_GENERATIONS) {
      return origSetTimeout.apply(window, arguments);
    }
    const gen = w.gen + 1;
    let id = 0;
    const run = function () {
      w.timers.delete(id); w.lastTimer = now();
      const prev = w.gen; w.gen = gen;
      try { return cb.apply(this, rest); } finally { w.gen = prev; }
    };
    id = origSetTimeout.call(window, run, ms);
    w.timers.add(id);
    return id;
  };
  window.clearTimeout = function clearTimeout(id) {
    if (w.timers.delete(id)) w.lastTimer = now();
    return origClearTimeout.apply(window, arguments);
  };
  // An interval is pending until its first tick (content often comes with it); after that it is
  // a poll or an animation, and holds nothing.
  const origSetInterval = window.setInterval, origClearInterval = window.clearInterval;
  window.setInterval = function setInterval(cb, delay, ...rest) {
    const ms = Number(delay) || 0;
    if (typeof cb !== 'function' || ms > TIMER_MAX_MS || w.gen >= TIMER_GENERATIONS) {
      return origSetInterval.apply(window, arguments);
    }
    const key = {};
    const run = function () {
      if (w.timers.delete(key)) w.lastTimer = now();
      return cb.apply(this, rest);
    };
    const id = origSetInterval.call(window, run, ms);
    key.id = id;
    w.intervals.set(id, key);
    w.timers.add(key);
    return id;
  };
  window.clearInterval = function clearInterval(id) {
    const key = w.intervals.get(id);
    if (key && w.timers.delete(key)) w.lastTimer = now();
    w.intervals.delete(id);
    return origClearInterval.apply(window, arguments);
  };
  window.addEventListener('load', () => { w.loaded = now(); }, {once: true});

  const observe = () => {
    if (w.observing) return;
    w.observing = true;
    new MutationObserver((records) => {
      const t = now();
      for (const r of records) {
        if (r.type === 'attributes' && r.attributeName === 'style') continue;  // animations
        w.lastMut = t;
        if (r.type === 'attributes') continue;
        w.lastContent = t;
        for (const n of r.addedNodes) if (n.nodeType === 1) w.added.push([n, t]);
      }
      if (w.added.length > 2 * KEEP_ADDED) w.added.splice(0, w.added.length - KEEP_ADDED);
    }).observe(document, {subtree: true, childList: true, characterData: true, attributes: true});
  };
  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', observe, {once: true});
  else observe();
})();
