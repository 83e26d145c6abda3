/* Read one list (relation entries, items or clock times) inside the live, logged-in page.
 * One evaluate per list: the whole paging / "more"-clicking loop runs here, so a list of any
 * length costs one round trip from Python, and fetches carry the page's cookies.
 * Argument: {spec, vars}; spec is a ListSource as JSON. Result: {entries, complete, error}.
 */
async ({spec, vars}) => {
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
  const get = (obj, path) => {
    if (!path) return obj;
    for (const key of path.split(".")) {
      if (obj === null || obj === undefined) return undefined;
      obj = obj[key];
    }
    return obj;
  };
  const str = (v) => (v === null || v === undefined) ? null
    : (typeof v === "object" ? JSON.stringify(v) : String(v));
  const pickJson = (entry) => {
    const out = {};
    for (const [name, path] of Object.entries(spec.fields)) out[name] = str(get(entry, path));
    return out;
  };
  const pickDom = (el) => {
    const out = {};
    for (const [name, where] of Object.entries(spec.fields)) {
      const at = where.lastIndexOf("@");
      const css = at >= 0 ? where.slice(0, at).trim() : where.trim();
      const attr = at >= 0 ? where.slice(at + 1).trim() : null;
      const node = css ? el.querySelector(css) : el;
      if (!node) { out[name] = null; continue; }
      out[name] = attr ? node.getAttribute(attr) : node.textContent.trim();
    }
    return out;
  };
  const fill = (template, page) => template.replace(/\{(\w+)\}/g, (m, key) =>
    key === "page" ? String(page) : encodeURIComponent(vars[key] === undefined ? "" : vars[key]));

  if (spec.source === "embedded_json") {
    const out = [];
    for (const el of document.querySelectorAll(spec.script)) {
      let data;
      try { data = JSON.parse(el.textContent); } catch (e) {
        return {entries: out, complete: false, error: "not JSON in " + spec.script};
      }
      const list = get(data, spec.list_path);
      if (Array.isArray(list)) out.push(...list.map(pickJson));
    }
    // An embedded list is usually the first few entries only: never proof of completeness.
    return {entries: out, complete: false, error: null};
  }

  if (spec.source === "json_api") {
    const out = [];
    let page = spec.first_page;
    for (let n = 0; n < spec.max_pages; n++) {
      const url = new URL(fill(spec.url, page), location.href).href;
      let r = null;
      for (let attempt = 0; attempt < 6; attempt++) {
        r = await fetch(url, {credentials: "same-origin", headers: {Accept: "application/json"}});
        if (r.status !== 429 && r.status < 500) break;
        await sleep(1000 * Math.min(10, parseInt(r.headers.get("Retry-After") || "1", 10) || 1));
      }
      if (!r.ok) {
        if (r.status === 404 && n > 0) return {entries: out, complete: true, error: null};
        return {entries: out, complete: false, error: url + " -> HTTP " + r.status, status: r.status};
      }
      let data;
      try { data = await r.json(); } catch (e) {
        // (a login page served instead of the list, when the session is gone)
        return {entries: out, complete: false, error: url + " did not answer JSON", status: r.status};
      }
      const list = get(data, spec.list_path);
      if (!Array.isArray(list)) {
        return {entries: out, complete: false, error: url + ": no list at " + (spec.list_path || "(root)")};
      }
      out.push(...list.map(pickJson));
      if (!list.length) return {entries: out, complete: true, error: null};
      if (spec.next_path) {
        const next = get(data, spec.next_path);
        if (next === null || next === undefined || next === false) {
          return {entries: out, complete: true, error: null};
        }
        page = typeof next === "number" ? next : page + 1;
      } else {
        page += 1;
      }
    }
    return {entries: out, complete: false, error: null};
  }

  // dom: click the tab, then "more" while it is visible, until the list stops growing.
  const visible = (el) => el && !el.hidden && !el.disabled && el.getClientRects().length > 0;
  const count = () => document.querySelectorAll(spec.entries).length;
  if (spec.tab) {
    const tab = document.querySelector(spec.tab);
    if (!tab) return {entries: [], complete: false, error: "no tab " + spec.tab};
    tab.click();
  }
  const deadline = Date.now() + spec.timeout_ms;
  let last = -1;
  let stableSince = Date.now();
  let complete = false;
  while (Date.now() < deadline) {
    if (spec.done && document.querySelector(spec.done)) { complete = true; break; }
    const button = spec.more ? Array.from(document.querySelectorAll(spec.more)).find(visible) : null;
    const n = count();
    if (n !== last) { last = n; stableSince = Date.now(); }
    if (button) {
      // click once, then wait for the list to grow (or the button to go) before clicking again
      const before = count();
      const clickedAt = Date.now();
      button.click();
      while (Date.now() < deadline && count() === before && visible(button)
             && Date.now() - clickedAt < Math.max(spec.settle_ms, 3000)) {
        await sleep(50);
      }
      stableSince = Date.now();
      continue;
    } else if (!spec.done && Date.now() - stableSince >= spec.settle_ms) {
      complete = true;
      break;
    }
    await sleep(50);
  }
  const entries = Array.from(document.querySelectorAll(spec.entries)).map(pickDom);
  return {entries, complete, error: complete ? null : "list did not finish loading in time"};
}
