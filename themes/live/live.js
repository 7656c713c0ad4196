/* rulebook serve --watch: follow the builds. Served only by the watch server, never part of a
   built site. A page reloads after a good build; after one with errors it shows them over the
   page (which stays the last good one). Every text is set with textContent: diagnostics quote
   content, and content is never markup. */
(function () {
  "use strict";
  var meta = document.querySelector('meta[name="rulebook-build"]');
  var shown = meta ? parseInt(meta.getAttribute("content"), 10) : 0;
  var overlay = null;

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) { node.className = cls; }
    if (text) { node.textContent = text; }
    return node;
  }

  function hide() {
    if (overlay) { overlay.remove(); overlay = null; }
  }

  function show(diagnostics) {
    hide();
    overlay = el("section", "rb-live-overlay");
    overlay.setAttribute("role", "alert");
    overlay.setAttribute("aria-label", "rulebook: build errors");
    var errors = diagnostics.filter(function (d) { return d.severity === "error"; });
    overlay.appendChild(el("h2", "rb-live-title",
      "rulebook: " + errors.length + (errors.length === 1 ? " error" : " errors") +
      "; this page is the last good build"));
    var list = el("ol", "rb-live-list");
    diagnostics.forEach(function (d) {
      var item = el("li", "rb-live-" + d.severity);
      item.appendChild(el("code", "rb-live-where", d.location));
      item.appendChild(el("span", "rb-live-code", ": " + d.severity + " " + d.code + ": "));
      item.appendChild(el("span", "rb-live-message", d.message));
      if (d.hint) { item.appendChild(el("span", "rb-live-hint", "hint: " + d.hint)); }
      list.appendChild(item);
    });
    overlay.appendChild(list);
    var close = el("button", "rb-live-close", "×");
    close.type = "button";
    close.setAttribute("aria-label", "Hide");
    close.addEventListener("click", hide);
    overlay.appendChild(close);
    document.body.appendChild(overlay);
  }

  var events = new EventSource("/_rulebook/events");
  events.onmessage = function (event) {
    var state = JSON.parse(event.data);
    if (state.built > shown) {
      events.close();
      window.location.reload();
    } else if (state.status === "errors") {
      show(state.diagnostics);
    } else {
      hide();
    }
  };
}());
