/* Collect a list whose DOM recycles its rows (virtual scrolling): only the rows near the viewport
 * exist at any time, and scrolling reuses the same elements for other entries. So entries are read
 * while scrolling in overlapping steps, merged by identity (the ``key`` field, else the whole
 * entry), and the walk stops at the end of the list (the scroll position stops moving and nothing
 * new appears for settle_ms) or at ``cap`` entries. One evaluate, one round trip.
 * Argument: {container, entries, fields, key, cap, settle_ms, timeout_ms}. Result:
 * {entries: [...], complete: bool, error: str|null, steps: n}.
 */
async (o) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const deadline = Date.now() + o.timeout_ms;
  const root = o.container ? document.querySelector(o.container) : null;
  if (o.container && !root) return {entries: [], complete: false, error: "no element " + o.container, steps: 0};
  const scroller = root || document.scrollingElement || document.documentElement;
  const pick = (el) => {
    const out = {};
    for (const [name, where] of Object.entries(o.fields)) {
      const at = where.lastIndexOf("@");
      const css = at >= 0 ? where.slice(0, at).trim() : where.trim();
      const attr = at >= 0 ? where.slice(at + 1).trim() : null;
      const node = css ? el.querySelector(css) : el;
      out[name] = !node ? null : (attr ? node.getAttribute(attr) : node.textContent.trim());
    }
    return out;
  };
  const seen = new Map();
  const harvest = () => {
    let fresh = 0;
    for (const el of (root || document).querySelectorAll(o.entries)) {
      const entry = pick(el);
      const id = o.key ? entry[o.key] : JSON.stringify(entry);
      if (id === null || id === undefined || id === "" || seen.has(id)) continue;
      seen.set(id, entry);
      fresh++;
    }
    return fresh;
  };
  let changed = 0;
  const mo = new MutationObserver(() => { changed = Date.now(); });
  mo.observe(root || document.body, {subtree: true, childList: true, attributes: true, characterData: true});
  const frame = () => new Promise((r) => { const t = setTimeout(r, 500); requestAnimationFrame(() => { clearTimeout(t); r(); }); });
  const settle = async (quietMs, capMs) => {
    // The page hears of a scroll on the next frame and usually renders on the one after (its own
    // requestAnimationFrame), so: two frames, then at least quietMs with no change (or capMs).
    const start = Date.now();
    const end = Math.min(deadline, start + capMs);
    await frame();
    await frame();
    while (Date.now() < end && (Date.now() - changed < quietMs || Date.now() - start < quietMs)) await sleep(20);
  };
  const position = () => (root ? root.scrollTop : window.scrollY);
  const move = (dy) => { if (root) root.scrollTop += dy; else window.scrollBy(0, dy); };
  const viewport = () => (root ? root.clientHeight : window.innerHeight);
  let steps = 0;
  let complete = false;
  try {
    if (root) root.scrollTop = 0; else window.scrollTo(0, 0);
    await settle(100, 1000);
    harvest();
    while (Date.now() < deadline && seen.size < o.cap) {
      const before = position();
      move(Math.max(1, Math.floor(viewport() * 0.5)));  // overlapping steps: no row is jumped over
      steps++;
      await settle(80, 1500);
      const fresh = harvest();
      if (position() === before) {
        // at the end: a list that appends when the end is reached gets settle_ms to do so
        const waitEnd = Math.min(deadline, Date.now() + o.settle_ms);
        let more = fresh;
        while (Date.now() < waitEnd && !more) {
          await sleep(50);
          more = harvest();
          if (position() !== before || scroller.scrollHeight > before + viewport() + 1) break;
        }
        if (!more && position() === before) { complete = true; break; }
      }
    }
  } finally {
    mo.disconnect();
  }
  const entries = Array.from(seen.values()).slice(0, o.cap);
  const capped = seen.size >= o.cap;
  return {entries, complete: complete && !capped, steps,
          error: complete || capped ? null : "list did not reach its end in time"};
}
