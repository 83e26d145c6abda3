/* Demo Community client code: the lists a modern community renders in the browser.
 * Feed and board thread lists: JSON + infinite scroll (IntersectionObserver on #sentinel).
 * Thread comments: button.load-more. Profile: [role=tab] tabs, each list paged by a "more"
 * button. Follow/Like buttons POST with the X-CSRF-Token header from <meta name=csrf-token>.
 * Every rendered item links with a plain <a href>, so a crawler finds the links once rendered.
 */
(function () {
  "use strict";

  const csrf = () => (document.querySelector('meta[name="csrf-token"]') || {}).content || "";
  const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

  function el(tag, attrs, ...children) {
    const node = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) {
      if (k === "text") node.textContent = v;
      else node.setAttribute(k, v);
    }
    for (const c of children) node.append(c);
    return node;
  }

  async function request(url, options) {
    for (let attempt = 0; attempt < 5; attempt++) {
      const r = await fetch(url, Object.assign({credentials: "same-origin",
        headers: {Accept: "application/json"}}, options || {}));
      if (r.status === 429) {  // rate limited: honour Retry-After, then try again
        await sleep(1000 * (parseInt(r.headers.get("Retry-After") || "1", 10) || 1));
        continue;
      }
      if (r.status === 401) {
        location.href = "/login?next=" + encodeURIComponent(location.pathname + location.search);
        throw new Error("login required");
      }
      if (!r.ok) throw new Error(url + " -> HTTP " + r.status);
      return r.json();
    }
    throw new Error(url + " stayed rate limited");
  }

  function postItem(p) {
    return el("li", {class: "post", "data-id": p.id},
      el("a", {class: "post-author", href: p.member_url, text: p.member}), " ",
      el("time", {datetime: p.time, text: p.time}),
      el("p", {class: "post-text", text: p.text}));
  }

  function threadItem(t) {
    return el("li", {class: "thread-item"},
      el("a", {class: "thread-link", href: t.url, text: t.title}), " by ",
      el("a", {class: "thread-author", href: t.author_url, text: t.author}), " ",
      el("time", {datetime: t.posted, text: t.posted}), " ",
      el("span", {class: "comment-count", text: t.comments + " comments"}));
  }

  function commentItem(c) {
    return el("li", {class: "comment"},
      el("a", {class: "comment-author", href: c.author_url, text: c.author}), " ",
      el("time", {datetime: c.time, text: c.time}),
      el("div", {class: "comment-text", text: c.text}));
  }

  function memberItem(m) {
    return el("li", {class: "member"},
      el("a", {class: "member-link", href: m.url, text: m.name}), " ",
      el("span", {class: "member-display-name", text: m.display_name}));
  }

  /* Load pages into `list` whenever `sentinel` comes near the viewport, until next is null.
   * fetchPage(next) resolves to {items, next, total}. */
  function infiniteList(list, sentinel, endNote, first, fetchPage, render) {
    let next = first;
    let busy = false;
    const nearBottom = () => sentinel.getBoundingClientRect().top < window.innerHeight + 300;
    async function more() {
      if (busy || next === null) return;
      busy = true;
      try {
        const page = await fetchPage(next);
        for (const item of page.items) list.append(render(item));
        next = page.next;
        list.dataset.loaded = String(list.children.length);
        if (next === null) {
          list.dataset.complete = "true";
          sentinel.hidden = true;
          if (endNote) {
            const total = endNote.querySelector(".total");
            if (total) total.textContent = String(page.total);
            endNote.hidden = false;
          }
        }
      } catch (err) {
        sentinel.textContent = "Could not load more: " + err.message;
        return;
      } finally {
        busy = false;
      }
      if (next !== null && nearBottom()) more();
    }
    new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) more();
    }, {rootMargin: "300px"}).observe(sentinel);
  }

  function initFeed() {
    const list = document.getElementById("feed");
    if (!list) return;
    infiniteList(list, document.getElementById("sentinel"), document.getElementById("list-end"),
      "", async (cursor) => {
        const d = await request("/api/feed" + (cursor ? "?cursor=" + encodeURIComponent(cursor) : ""));
        return {items: d.items, next: d.next_cursor, total: d.total};
      }, postItem);
  }

  function initBoard() {
    const list = document.getElementById("thread-list");
    if (!list || !list.dataset.board) return;
    infiniteList(list, document.getElementById("sentinel"), document.getElementById("list-end"),
      parseInt(list.dataset.page, 10), async (page) => {
        const d = await request("/api/board/" + list.dataset.board + "/threads?page=" + page);
        return {items: d.items, next: d.next_page, total: d.total};
      }, threadItem);
  }

  async function initBoardCard() {
    const card = document.getElementById("board-card");
    if (!card) return;
    const d = await request("/api/board/" + card.dataset.board);
    const latest = el("ul", {class: "card-latest"});
    for (const t of d.latest) latest.append(el("li", {}, el("a", {class: "thread-link", href: t.url, text: t.title})));
    card.append(
      el("h1", {class: "board-name"}, el("a", {href: d.url, text: d.name})),
      el("p", {class: "board-desc", text: d.description}),
      el("p", {class: "board-total", text: d.threads + " threads"}),
      el("h2", {text: "Latest threads"}),
      latest);
  }

  function initComments() {
    const button = document.querySelector("button.load-more");
    const list = document.getElementById("comments");
    if (!button || !list) return;
    button.addEventListener("click", async () => {
      if (button.disabled) return;
      button.disabled = true;
      try {
        const d = await request("/api/thread/" + button.dataset.threadId + "/comments?offset="
          + button.dataset.offset);
        for (const c of d.items) list.append(commentItem(c));
        if (d.next_offset === null) {
          list.dataset.complete = "true";
          button.remove();
          return;
        }
        button.dataset.offset = String(d.next_offset);
      } finally {
        button.disabled = false;
      }
    });
  }

  function initTabs() {
    const tabs = Array.from(document.querySelectorAll('[role="tab"]'));
    if (!tabs.length) return;
    const loaders = new Map();
    for (const tab of tabs) {
      const panel = document.getElementById(tab.getAttribute("aria-controls"));
      const list = panel.querySelector(".tab-list");
      const moreButton = panel.querySelector("button.more");
      const endNote = panel.querySelector(".tab-end");
      const render = tab.dataset.tab === "posts" ? postItem : memberItem;
      let next = 1;
      let busy = false;
      async function load() {
        if (busy || next === null) return;
        busy = true;
        try {
          const d = await request(panel.dataset.endpoint + "?page=" + next);
          for (const item of d.items) list.append(render(item));
          next = d.next_page;
          panel.dataset.total = String(d.total);
          moreButton.hidden = next === null;
          if (next === null) {
            panel.dataset.complete = "true";
            endNote.hidden = false;
          }
        } finally {
          busy = false;
        }
      }
      moreButton.addEventListener("click", load);
      loaders.set(tab, {panel, load, started: false});
      tab.addEventListener("click", () => select(tab));
    }
    function select(tab) {
      for (const [t, info] of loaders) {
        const on = t === tab;
        t.setAttribute("aria-selected", on ? "true" : "false");
        info.panel.hidden = !on;
      }
      const info = loaders.get(tab);
      if (!info.started) {
        info.started = true;
        info.load();
      }
    }
    select(tabs.find((t) => t.getAttribute("aria-selected") === "true") || tabs[0]);
  }

  function initButtons() {
    for (const b of document.querySelectorAll("button.follow")) {
      b.addEventListener("click", async () => {
        await request("/api/user/" + encodeURIComponent(b.dataset.member) + "/follow",
          {method: "POST", headers: {"X-CSRF-Token": csrf(), Accept: "application/json"}});
        b.textContent = "Following";
      });
    }
    for (const b of document.querySelectorAll("button.like")) {
      b.addEventListener("click", async () => {
        const d = await request("/api/thread/" + b.dataset.threadId + "/like",
          {method: "POST", headers: {"X-CSRF-Token": csrf(), Accept: "application/json"}});
        const likes = document.querySelector(".likes");
        if (likes) {
          likes.dataset.likes = String(d.likes);
          likes.textContent = d.likes + " likes";
        }
      });
    }
    const newImage = document.getElementById("captcha-new");
    const img = document.getElementById("captcha-img");
    if (newImage && img) {
      newImage.addEventListener("click", (ev) => {
        ev.preventDefault();
        img.src = "/captcha.png?r=" + Math.random().toString(16).slice(2, 14);
      });
    }
  }

  function initMembers() {  // virtual scrolling: ~12 rows exist, reused as the list scrolls
    const box = document.getElementById("member-scroller");
    if (!box || !window.DEMO_MEMBERS) return;
    const data = window.DEMO_MEMBERS;
    const ROW = 25;
    const inner = box.querySelector(".vinner");
    inner.style.height = (data.length * ROW) + "px";
    const pool = [];
    for (let i = 0; i < Math.min(14, data.length); i++) {
      const a = document.createElement("a");
      a.className = "member-row";
      a.style.position = "absolute";
      a.style.left = "0";
      a.style.height = ROW + "px";
      inner.appendChild(a);
      pool.push(a);
    }
    function render() {
      const first = Math.max(0, Math.floor(box.scrollTop / ROW) - 1);
      pool.forEach((a, i) => {
        const k = Math.min(first + i, data.length - 1);
        a.style.top = (k * ROW) + "px";
        a.href = "/u/" + data[k][0];
        a.textContent = data[k][1];
      });
    }
    box.addEventListener("scroll", () => requestAnimationFrame(render));
    render();
  }

  document.addEventListener("DOMContentLoaded", () => {
    initMembers();
    initFeed();
    initBoard();
    initBoardCard();
    initComments();
    initTabs();
    initButtons();
  });
})();
