/* Kartenregeln – small site-wide helpers for htmx (loaded with defer on every page).
 *
 * 1. A failed htmx request never fails silently: the server's German message (the element
 *    marked [data-error-message] on our error pages) is shown in a polite live region near
 *    the element that sent the request. Areas with their own error handling opt out with
 *    [data-own-errors].
 * 2. After Back/Forward, forms marked [data-url-state] show the filters in the address
 *    (htmx restores the page's HTML, but not what was picked in the dropdowns).
 * 3. htmx requests that change something carry the CSRF token from the csrftoken cookie:
 *    cached pages are the same for every reader and hold no token of their own (the
 *    cookie is set by the per-visitor fragments and forms).
 * 4. A click on a control htmx has just swapped in works at once: htmx binds new content
 *    only when it settles (20 ms after the swap, longer on a busy phone), and a click in
 *    between would follow the plain link or send the form without htmx – a quick second
 *    tap on „Weiter“ in a worked example left the game page for the step's own page.
 */
(function () {
  "use strict";

  var OWN_ERRORS = "[data-own-errors]";
  var FALLBACK = {
    offline: "Keine Verbindung zum Server. Bitte prüfe deine Internetverbindung und versuch es noch einmal.",
    429: "Gerade kamen zu viele Anfragen von deinem Anschluss. Bitte warte etwas und versuch es dann noch einmal.",
    server: "Auf unserem Server ist ein Fehler aufgetreten. Bitte versuch es in ein paar Minuten noch einmal.",
    other: "Das hat leider nicht geklappt. Bitte lade die Seite neu und versuch es noch einmal."
  };

  function text(node) {
    return node ? node.textContent.replace(/\s+/g, " ").trim() : "";
  }

  function messageFrom(xhr) {
    if (!xhr || !xhr.status) return FALLBACK.offline;
    var type = xhr.getResponseHeader("Content-Type") || "";
    if (type.indexOf("text/html") === 0 && xhr.responseText) {
      var doc = new DOMParser().parseFromString(xhr.responseText, "text/html");
      var marked = text(doc.querySelector("[data-error-message]"));
      if (marked) return marked;
      var heading = text(doc.querySelector("main h1"));
      var lead = text(doc.querySelector("main p"));
      if (heading || lead) return [heading, lead].filter(Boolean).join(" – ");
    }
    if (xhr.status === 429) return FALLBACK[429];
    return xhr.status >= 500 ? FALLBACK.server : FALLBACK.other;
  }

  function slotFor(elt) {
    var container = (elt && elt.closest && elt.closest("form, section, [data-error-slot]")) ||
      document.querySelector("main") || document.body;
    var slot = container.querySelector(":scope > .request-error");
    if (!slot) {
      slot = document.createElement("p");
      slot.className = "request-error";
      slot.setAttribute("role", "status");
      slot.setAttribute("aria-live", "polite");
      slot.hidden = true;
      container.insertBefore(slot, container.firstChild);
    }
    return slot;
  }

  function showError(event) {
    var elt = event.detail && event.detail.elt;
    if (elt && elt.closest && elt.closest(OWN_ERRORS)) return;
    var slot = slotFor(elt);
    var message = messageFrom(event.detail.xhr);
    slot.hidden = false;
    slot.textContent = "";
    // Filled a moment after it is shown, so screen readers announce the new text.
    window.setTimeout(function () {
      slot.textContent = message;
      slot.scrollIntoView({ block: "nearest" });
    }, 60);
  }

  function clearError(event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.closest || elt.closest(OWN_ERRORS)) return;
    var container = elt.closest("form, section, [data-error-slot]");
    var slot = container && container.querySelector(":scope > .request-error");
    if (slot) {
      slot.hidden = true;
      slot.textContent = "";
    }
  }

  document.addEventListener("htmx:responseError", showError);
  document.addEventListener("htmx:sendError", showError);
  document.addEventListener("htmx:beforeRequest", clearError);
  // An old message must not come back with the page on Back.
  document.addEventListener("htmx:beforeHistorySave", function () {
    document.querySelectorAll(".request-error").forEach(function (slot) { slot.remove(); });
  });

  function restoreFromUrl() {
    var params = new URLSearchParams(window.location.search);
    document.querySelectorAll("form[data-url-state]").forEach(function (form) {
      Array.prototype.forEach.call(form.elements, function (field) {
        if (!field.name) return;
        var value = params.get(field.name) || "";
        if (field.tagName === "SELECT") {
          field.value = value;
          if (field.selectedIndex < 0) field.selectedIndex = 0;
        } else if (field.type === "search" || field.type === "text") {
          field.value = value;
        }
      });
    });
  }

  function cookie(name) {
    var match = document.cookie.match(new RegExp("(?:^|; )" + name + "=([^;]*)"));
    return match ? decodeURIComponent(match[1]) : "";
  }

  document.addEventListener("htmx:configRequest", function (event) {
    var verb = (event.detail.verb || "get").toLowerCase();
    if (verb === "get") return;
    var token = cookie("csrftoken"); // Django's CSRF_COOKIE_NAME
    if (!token) return;
    event.detail.headers["X-CSRFToken"] = token;
    // Two fragments loaded at once by a first-time visitor each got a new cookie: only the
    // last one set counts, so a form's own token may belong to the other. The cookie wins.
    var params = event.detail.parameters;
    if (params && params.csrfmiddlewaretoken !== undefined) params.csrfmiddlewaretoken = token;
  });

  // The same for a form sent without htmx (e.g. after a confirmation dialog).
  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.method || form.method.toLowerCase() !== "post") return;
    var field = form.querySelector("input[name=csrfmiddlewaretoken]");
    var token = cookie("csrftoken");
    if (field && token) field.value = token;
  }, true);

  // htmx marks what it inserted with this class until it has bound it (htmx.config.addedClass).
  document.addEventListener("click", function (event) {
    var htmx = window.htmx;
    var target = event.target;
    if (!htmx || !target.closest || !target.closest("." + htmx.config.addedClass)) return;
    var control = target.closest("[hx-get], [hx-post]");
    // Bound now, its htmx listener still gets this very click; htmx's own binding at the
    // settle finds it bound and leaves it.
    if (control) htmx.process(control);
  }, true);

  document.addEventListener("htmx:historyRestore", restoreFromUrl);
  window.addEventListener("pageshow", function (event) {
    if (event.persisted) restoreFromUrl();
  });
  restoreFromUrl();
})();
