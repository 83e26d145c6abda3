/* Header quick search: a search box without a form, the kind a crawler must learn by typing in it.
 * Added to the header of logged-in pages after load; Enter fetches /api/search?q=... and the
 * results drop down under the box as plain links. No button, so nothing here is a click target
 * for a crawler exploring a page's buttons.
 */
(function () {
  "use strict";
  document.addEventListener("DOMContentLoaded", () => {
    const header = document.querySelector("header.site-header");
    if (!header || !document.getElementById("logout")) return;
    const box = document.createElement("div");
    box.className = "quick-search";
    box.setAttribute("role", "search");
    const input = document.createElement("input");
    input.type = "search";
    input.id = "quick-q";
    input.placeholder = "Quick search";
    input.setAttribute("aria-label", "Search threads");
    input.autocomplete = "off";
    const list = document.createElement("ul");
    list.id = "quick-results";
    list.hidden = true;
    box.append(input, list);
    header.append(box);
    input.addEventListener("keydown", async (e) => {
      if (e.key !== "Enter") return;
      e.preventDefault();
      const q = input.value.trim();
      if (!q) return;
      const r = await fetch("/api/search?q=" + encodeURIComponent(q),
        {credentials: "same-origin", headers: {Accept: "application/json"}});
      if (!r.ok) return;
      const data = await r.json();
      list.replaceChildren(...data.items.map((t) => {
        const li = document.createElement("li");
        const a = document.createElement("a");
        a.href = t.url;
        a.textContent = t.title;
        li.append(a);
        return li;
      }));
      list.hidden = false;
    });
  });
})();
