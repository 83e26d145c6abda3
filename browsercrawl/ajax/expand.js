/* browsercrawl: everything a person would see on one page, in ONE evaluate round trip.
 *
 * Runs inside the page: waits for a selector or for the DOM to stay quiet, scrolls until no new
 * content, clicks "load more" until it is gone, then explores URL-less states (tabs, toggles,
 * href="#") by clicking candidates, keeping each new state deduplicated by a hash of its visible
 * DOM. All loops stop at the page's deadline. Nothing that could change the site is clicked (deny
 * texts and selectors, submit buttons, forms that POST, links that navigate), and while this runs
 * the page's own non-GET fetch/XHR, form submits and beacons are refused as a second guard.
 */
async (o) => {
  const t0 = performance.now();
  const deadline = t0 + o.budgetMs;
  const left = () => deadline - performance.now();
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  const report = {waited_ms: 0, wait_ok: true, scroll_rounds: 0, load_more_clicks: 0,
    explore_clicks: 0, states: [], blocked: [], budget_hit: false, nodes_before: 0, nodes_after: 0,
    items_before: null, items_after: null, navigated: false};

  // ---- mutation bookkeeping: "content" = nodes or text changed; any = also attributes ----
  let content = 0;
  let lastAny = performance.now();
  const mo = new MutationObserver((recs) => {
    lastAny = performance.now();
    for (const r of recs) if (r.type !== "attributes") { content++; break; }
  });
  mo.observe(document, {subtree: true, childList: true, characterData: true, attributes: true});

  // Requests the page has in flight (counted by the fetch/XHR wrappers in guard()).
  let inflight = 0;
  let lastNet = 0;
  const busy = () => inflight > 0;
  const REQUEST_CAP_MS = 10000;  // a request slower than this (or long-polling) no longer holds us

  async function quiet(quietMs, capMs) {  // true once no request is in flight and nothing changed for quietMs
    const end = performance.now() + Math.max(0, Math.min(capMs, left()));
    while (performance.now() < end) {
      const now = performance.now();
      if (!busy() && now - lastAny >= quietMs && now - lastNet >= quietMs) return true;
      await sleep(Math.min(25, quietMs));
    }
    return false;
  }
  async function changed(before, idleMs, quietMs) {  // new content appeared (and settled)?
    const start = performance.now();
    const idleEnd = start + idleMs;
    const hardEnd = start + Math.max(idleMs, REQUEST_CAP_MS);
    while (left() > 0) {
      const now = performance.now();
      if (o.doneSelector && document.querySelector(o.doneSelector) && !busy()) break;
      if (content !== before && !busy() && (now - lastAny >= quietMs || now > idleEnd)) return true;
      if (content === before && !busy() && lastNet > start && now - lastNet >= quietMs + 100) break;
      if (now > (busy() ? hardEnd : idleEnd) && (content === before || now > hardEnd)) break;
      await sleep(25);
    }
    return content !== before;
  }
  // Let the page render (IntersectionObserver-driven lists only notice a scroll on a frame).
  const frames = (n) => new Promise((resolve) => {
    const timer = setTimeout(resolve, 1000);
    const step = (k) => (k <= 0 ? (clearTimeout(timer), setTimeout(resolve, 0)) : requestAnimationFrame(() => step(k - 1)));
    step(n);
  });
  const countNodes = () => document.getElementsByTagName("*").length;
  const countItems = () => (o.itemSelector ? document.querySelectorAll(o.itemSelector).length : null);

  // ---- the safety net: no state-changing request leaves the page while we click ----
  const SAFE = new Set(["GET", "HEAD", "OPTIONS"]);
  const restore = [];
  function guard() {
    const blocked = report.blocked;
    const block = !!o.blockMutations;
    const done = () => { inflight = Math.max(0, inflight - 1); lastNet = performance.now(); };
    const origFetch = window.fetch;
    window.fetch = function (input, init) {
      const method = String((init && init.method) || (input && input.method) || "GET").toUpperCase();
      if (block && !SAFE.has(method)) {
        blocked.push(method + " " + String((input && input.url) || input));
        return Promise.reject(new TypeError("browsercrawl: " + method + " blocked"));
      }
      inflight++;
      lastNet = performance.now();
      const p = origFetch.apply(this, arguments);
      p.then(done, done);
      return p;
    };
    restore.push(() => { window.fetch = origFetch; });
    const X = XMLHttpRequest.prototype;
    const origOpen = X.open, origSend = X.send;
    X.open = function (method, url) {
      this.__bcMethod = String(method).toUpperCase();
      this.__bcUrl = String(url);
      return origOpen.apply(this, arguments);
    };
    X.send = function () {
      if (block && this.__bcMethod && !SAFE.has(this.__bcMethod)) {
        blocked.push(this.__bcMethod + " " + this.__bcUrl);
        throw new DOMException("browsercrawl: " + this.__bcMethod + " blocked", "NetworkError");
      }
      inflight++;
      lastNet = performance.now();
      this.addEventListener("loadend", done, {once: true});
      return origSend.apply(this, arguments);
    };
    restore.push(() => { X.open = origOpen; X.send = origSend; });
    if (!block) return;
    const F = HTMLFormElement.prototype;
    const origSubmit = F.submit, origRequest = F.requestSubmit;
    F.submit = function () { blocked.push("SUBMIT " + this.action); };
    F.requestSubmit = function () { blocked.push("SUBMIT " + this.action); };
    restore.push(() => { F.submit = origSubmit; F.requestSubmit = origRequest; });
    const onSubmit = (ev) => { ev.preventDefault(); ev.stopImmediatePropagation();
      blocked.push("SUBMIT " + (ev.target && ev.target.action)); };
    window.addEventListener("submit", onSubmit, true);
    restore.push(() => window.removeEventListener("submit", onSubmit, true));
    if (navigator.sendBeacon) {
      const origBeacon = navigator.sendBeacon;
      navigator.sendBeacon = function (url) { blocked.push("BEACON " + url); return false; };
      restore.push(() => { navigator.sendBeacon = origBeacon; });
    }
  }

  // ---- what may be clicked ----
  const denyWords = (o.denyTexts || []).map((w) => w.toLowerCase().trim()).filter(Boolean)
    .map((w) => new RegExp("(^|[^a-z0-9])" + w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")
      .replace(/\s+/g, "\\s*") + "($|[^a-z0-9])"));
  const denySel = (o.denySelectors || []).filter((s) => { try { document.querySelector(s); return true; }
    catch (e) { return false; } }).join(", ");
  const here = location.href.split("#")[0];
  function visible(el) {
    if (!el.isConnected) return false;
    if (el.checkVisibility) return el.checkVisibility({checkVisibilityCSS: true});
    return el.getClientRects().length > 0;
  }
  function words(el) {
    const bits = [el.innerText || el.textContent || "", el.value || "", el.getAttribute("aria-label") || "",
      el.getAttribute("title") || "", el.id || "", el.getAttribute("name") || "",
      typeof el.className === "string" ? el.className : "", el.getAttribute("data-action") || ""];
    return bits.join(" ").replace(/[-_]+/g, " ").toLowerCase().slice(0, 400);
  }
  function navigates(el) {
    const a = el.closest("a[href]");
    if (!a) return false;
    const href = a.getAttribute("href") || "";
    if (href.startsWith("javascript:")) return false;
    if (a.target && a.target !== "_self") return true;
    return a.href.split("#")[0] !== here;
  }
  function allowed(el) {
    if (el.disabled || el.getAttribute("aria-disabled") === "true") return false;
    if (navigates(el)) return false;
    if ((el.type || "").toLowerCase() === "submit" && el.form) return false;  // also implicit submit
    if (denySel && (el.matches(denySel) || el.closest(denySel))) return false;
    const w = words(el);
    return !denyWords.some((rx) => rx.test(w));
  }

  // ---- load more ----
  const MORE_RX = /^\s*((load|show|view|see|read|display)\s+(\d+\s+)?(more|older|earlier|all|next|previous)\b.*|more(\s+\w+){0,2}|next|older|\+\s*\d+\s+more.*)\s*$/i;
  const MORE_CANDIDATES = "button, [role=button], a[href='#'], a[href^='#'], a[href^='javascript:'], a:not([href]), input[type=button]";
  function findMore() {
    const sel = o.loadMore === "auto" ? MORE_CANDIDATES : o.loadMore;
    for (const el of document.querySelectorAll(sel)) {
      if (!visible(el) || !allowed(el)) continue;
      if (o.loadMore === "auto") {
        const text = (el.innerText || el.value || "").trim();
        if (text.length > 40 || !MORE_RX.test(text)) continue;
      }
      return el;
    }
    return null;
  }
  function busyMore() {  // a control that is there but disabled: a load is still in flight
    const sel = o.loadMore === "auto" ? MORE_CANDIDATES : o.loadMore;
    for (const el of document.querySelectorAll(sel)) {
      if (!(el.disabled || el.getAttribute("aria-busy") === "true") || !visible(el)) continue;
      if (o.loadMore !== "auto" || MORE_RX.test((el.innerText || el.value || "").trim())) return true;
    }
    return false;
  }
  async function loadMore() {
    let clicks = 0;
    let misses = 0;
    while (clicks < o.maxLoadMore && left() > 0) {
      let el = findMore();
      if (!el) {  // maybe busy (disabled while loading): give it one idle period
        if (!busyMore()) break;
        const before = content;
        if (!(await changed(before, o.idleMs, 100))) break;
        el = findMore();
        if (!el) break;
      }
      const before = content;
      el.click();
      clicks++;
      if (!(await changed(before, o.idleMs, o.quietMs))) {
        if (++misses >= 2) break;  // clicking twice changed nothing: not a working control
      } else {
        misses = 0;
      }
    }
    return clicks;
  }

  // ---- infinite scroll ----
  function scrollables() {
    const out = [document.scrollingElement || document.documentElement];
    for (const el of document.querySelectorAll("main, section, div, ul, ol")) {
      if (el.scrollHeight > el.clientHeight + 50 && /(auto|scroll)/.test(getComputedStyle(el).overflowY)) {
        out.push(el);
        if (out.length > 5) break;
      }
    }
    return out;
  }
  async function scroll() {
    let rounds = 0;
    while (rounds < o.scroll && left() > 0) {
      if (o.doneSelector && document.querySelector(o.doneSelector)) break;
      const before = content;
      await frames(2);  // the page has seen the previous round's layout before we move again
      const toBottom = () => {
        for (const el of scrollables()) el.scrollTop = el.scrollHeight;
        window.scrollTo(0, (document.scrollingElement || document.documentElement).scrollHeight);
      };
      toBottom();
      if (!(await changed(before, o.idleMs, o.quietMs))) {
        // Nudge once: up a screen and back, so an observer that missed the move sees a fresh one.
        window.scrollBy(0, -window.innerHeight);
        await frames(2);
        toBottom();
        if (!(await changed(before, o.idleMs, o.quietMs))) break;
      }
      rounds++;
    }
    window.scrollTo(0, 0);
    return rounds;
  }

  // ---- states without URLs ----
  function hashString(str) {  // cyrb53: fast 53-bit string hash, hex
    let h1 = 0xdeadbeef, h2 = 0x41c6ce57;
    for (let i = 0; i < str.length; i++) {
      const ch = str.charCodeAt(i);
      h1 = Math.imul(h1 ^ ch, 2654435761);
      h2 = Math.imul(h2 ^ ch, 1597334677);
    }
    h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
    h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
    return (4294967296 * (2097151 & h2) + (h1 >>> 0)).toString(16).padStart(14, "0");
  }
  function visibleLinks() {
    const out = [];
    const seen = new Set();
    for (const a of document.querySelectorAll("a[href]")) {
      const href = a.href;
      if (typeof href !== "string" || !href.startsWith("http") || seen.has(href) || !visible(a)) continue;
      seen.add(href);
      out.push([href, (a.textContent || "").replace(/\s+/g, " ").trim().slice(0, 200)]);
    }
    return out;
  }
  function stateHash(text, links) {  // the visible DOM: what a person sees, and where it links
    return hashString(text + "\n" + links.map((l) => l[0]).join("\n"));
  }
  function describe(el) {
    const parts = [];
    for (let n = el; n && n.nodeType === 1 && n !== document.body && parts.length < 6; n = n.parentElement) {
      if (n.id) { parts.unshift("#" + CSS.escape(n.id)); break; }
      let s = n.localName;
      const sib = n.parentElement ? Array.from(n.parentElement.children).filter((c) => c.localName === n.localName) : [];
      if (sib.length > 1) s += ":nth-of-type(" + (sib.indexOf(n) + 1) + ")";
      parts.unshift(s);
    }
    return {selector: parts.join(" > "), text: (el.innerText || el.value || "").trim().slice(0, 80)};
  }
  async function explore(ex) {
    const path = [];
    const clicked = new Set();
    const known = new Set();
    const text0 = document.body ? document.body.innerText : "";
    const seen = new Set([stateHash(text0, visibleLinks())]);
    while (report.explore_clicks < ex.maxClicks && report.states.length < ex.maxStates && left() > 0) {
      // Depth first: controls the last click revealed come before older ones.
      let el = null;
      let fresh = null;
      for (const c of document.querySelectorAll(ex.candidates)) {
        const isNew = !known.has(c);
        known.add(c);
        if (clicked.has(c) || !visible(c) || !allowed(c)) continue;
        if (o.loadMore && o.loadMore !== "auto" && c.matches(o.loadMore)) continue;  // expansion's job
        if (o.loadMore === "auto" && MORE_RX.test((c.innerText || "").trim())) continue;
        if (isNew && report.explore_clicks > 0 && !fresh) fresh = c;
        if (!el) el = c;
      }
      el = fresh || el;
      if (!el) break;
      clicked.add(el);
      path.push(describe(el));
      el.click();
      report.explore_clicks++;
      await sleep(30);
      await quiet(ex.settleMs, Math.max(o.idleMs, REQUEST_CAP_MS));
      if (o.loadMore) report.load_more_clicks += await loadMore();
      const text = document.body ? document.body.innerText : "";
      const links = visibleLinks();
      const h = stateHash(text, links);
      if (seen.has(h)) continue;
      seen.add(h);
      report.states.push({hash: h, path: path.slice(), text, links,
        html: ex.storeHtml ? document.documentElement.outerHTML : null});
    }
  }

  // ---- run ----
  try {
    guard();
    if (o.waitSelector) {
      const end = performance.now() + Math.min(o.waitCapMs, left());
      while (!document.querySelector(o.waitSelector) && performance.now() < end) await sleep(50);
      report.wait_ok = !!document.querySelector(o.waitSelector);
    } else if (o.waitStableMs) {
      report.wait_ok = await quiet(o.waitStableMs, o.waitCapMs);
    }
    report.waited_ms = Math.round(performance.now() - t0);
    report.nodes_before = countNodes();
    report.items_before = countItems();
    if (o.scroll) report.scroll_rounds = await scroll();
    if (o.loadMore) report.load_more_clicks += await loadMore();
    if (o.explore) await explore(o.explore);
  } finally {
    for (const undo of restore.reverse()) { try { undo(); } catch (e) { /* page code replaced it */ } }
    mo.disconnect();
  }
  report.nodes_after = countNodes();
  report.items_after = countItems();
  report.budget_hit = left() <= 0;
  report.total_ms = Math.round(performance.now() - t0);
  return report;
}
