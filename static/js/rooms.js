/* Online rooms and the in-page demos against bots: the little the server cannot do.
 *
 * The server owns every decision and every deadline. This script only counts
 * the visible timers down from the seconds the server sent, copies the
 * invite link, opens the confirmation dialogs, keeps keyboard focus and open
 * <details> across htmx swaps, refuses to swap in an older table than the one
 * shown, shows when the connection drops, and swaps in the tables the server
 * pushes (Server-Sent Events through htmx-ext-sse: the table drawn for this
 * viewer, or a version notice on which it fetches the table) – pausing the
 * timed poll while the stream works.
 */
(function () {
  "use strict";

  if (window.roomsScriptLoaded) return; // the demo template may bring it a second time
  window.roomsScriptLoaded = true;
  document.documentElement.classList.add("js");

  var URGENT_SECONDS = 15;
  var timers = new WeakMap(); // countdown element -> {end, announced}
  var openDetails = {}; // id -> open?
  var focusBeforeSwap = null;

  function onReady(fn) {
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", fn);
    else fn();
  }

  function liveRegionFor(el) {
    var demo = el.closest && el.closest("[data-demo]");
    return demo ? demo.querySelector("[data-live]") : document.getElementById("room-live");
  }

  // ---------------------------------------------------------------- Timers

  function format(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    return Math.floor(s / 60) + ":" + String(s % 60).padStart(2, "0");
  }

  function tick() {
    var now = performance.now();
    document.querySelectorAll("[data-countdown]").forEach(function (el) {
      var info = timers.get(el);
      if (!info) {
        info = { end: now + parseFloat(el.dataset.countdown) * 1000, announced: false };
        timers.set(el, info);
      }
      var left = Math.max(0, (info.end - now) / 1000);
      var text = el.querySelector("[data-countdown-text]");
      if (text) text.textContent = format(left);
      var bar = el.querySelector("[data-countdown-bar]");
      if (bar) bar.value = left;
      var urgent = left <= URGENT_SECONDS;
      el.classList.toggle("is-urgent", urgent);
      if (urgent && !info.announced && left > 0 && el.hasAttribute("data-countdown-mine")) {
        info.announced = true;
        var live = liveRegionFor(el);
        if (live) live.textContent = "Noch " + Math.ceil(left) + " Sekunden.";
      }
    });
  }

  // ---------------------------------------------------------------- Copy link

  function copy(button) {
    var source = document.getElementById(button.dataset.copy);
    var status = button.parentElement.querySelector("[data-copy-status]");
    var text = source ? (source.href || source.textContent).trim() : "";
    function done(ok) {
      if (status) status.textContent = ok ? "Link kopiert!" : "Bitte markiere den Link und kopiere ihn selbst.";
    }
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(function () { done(true); }, function () { done(false); });
    } else {
      var range = document.createRange();
      range.selectNodeContents(source);
      var selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      var ok = false;
      try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
      done(ok);
    }
  }

  // ---------------------------------------------------------------- New content

  function prepare(root) {
    root.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
    root.querySelectorAll("details[data-remember][id]").forEach(function (d) {
      if (Object.prototype.hasOwnProperty.call(openDetails, d.id)) d.open = openDetails[d.id];
    });
    tick();
  }

  document.addEventListener("click", function (event) {
    var opener = event.target.closest("[data-open-dialog]");
    if (opener) {
      var dialog = document.getElementById(opener.dataset.openDialog);
      if (dialog && dialog.showModal) {
        event.preventDefault();
        dialog.showModal();
      }
      return;
    }
    var closer = event.target.closest("[data-close-dialog]");
    if (closer) {
      closer.closest("dialog").close();
      return;
    }
    var copier = event.target.closest("[data-copy]");
    if (copier) copy(copier);
  });

  document.addEventListener("submit", function (event) {
    var form = event.target.closest("form[data-confirm-dialog]");
    if (!form) return;
    var dialog = document.getElementById(form.dataset.confirmDialog);
    if (dialog && dialog.showModal) {
      event.preventDefault();
      dialog.showModal();
    }
  });

  document.addEventListener("toggle", function (event) {
    var d = event.target;
    if (d.matches && d.matches("details[data-remember][id]")) openDetails[d.id] = d.open;
  }, true);

  // ---------------------------------------------------------------- htmx
  //
  // A click must never lose against the poll that happens to be on its way:
  // while a player's own request runs, polls are not sent and poll answers
  // not swapped in (nothing is aborted – htmx logs aborts as errors).

  var userBusyUntil = 0;

  function isPoll(detail) {
    var elt = detail && detail.elt;
    return !!elt && (elt.id === "room-body" || elt.hasAttribute("data-demo-body")) &&
      !!detail.requestConfig && detail.requestConfig.verb === "get";
  }

  document.addEventListener("htmx:beforeRequest", function (event) {
    if (!isPoll(event.detail)) userBusyUntil = Date.now() + 10000;
    else if (Date.now() < userBusyUntil || hiddenDemoPoll(event.detail)) event.preventDefault();
    else if (skipPoll(event.detail)) event.preventDefault();
  });

  // ---------------------------------------------------------------- Pushed updates
  //
  // The stream lives on a wrapper that swaps never replace ([data-live-stream] in
  // rooms, [data-live-url] around a demo). Its "view" events carry the table itself;
  // its "changed" events a version number only: a newer one than the table shows
  // makes the table fetch itself ("live-stale", the same request as a poll). A stream counts as working from its first
  // "ready" event on – a proxy that buffers never delivers one, and the page
  // simply keeps polling – until it reports an error.

  function streamOf(el) {
    return el && el.closest && el.closest("[data-live-stream]");
  }

  function shownVersion(body) {
    var v = parseInt(body && body.dataset.version, 10);
    return isNaN(v) ? -1 : v;
  }

  function bodyIn(wrapper) {
    return wrapper.querySelector("#room-body, [data-demo-body]");
  }

  function skipPoll(detail) {
    var wrapper = streamOf(detail.elt);
    if (!wrapper || !wrapper.liveWorking) return false;
    var trigger = detail.requestConfig && detail.requestConfig.triggeringEvent;
    if (trigger && trigger.type === "live-stale") {
      // Only if the table still shows less than the newest notice.
      return shownVersion(detail.elt) >= (wrapper.liveNewest || 0) && !wrapper.liveGone;
    }
    return true; // a timed poll: the stream tells us when something changed
  }

  function catchUp(wrapper) {
    var body = bodyIn(wrapper);
    if (!body) return;
    if (wrapper.liveGone || shownVersion(body) < (wrapper.liveNewest || 0)) {
      window.htmx.trigger(body, "live-stale");
    }
  }

  // The viewer the stream was opened for (its "ready" event names it) must be the one
  // the page shows: after joining or leaving a table the stream is opened anew.
  function viewerMismatch(wrapper) {
    var body = bodyIn(wrapper);
    var shown = body && body.dataset.viewer;
    return !!shown && wrapper.liveViewer !== undefined && shown !== wrapper.liveViewer;
  }

  // The stream closed; the timed poll takes over until a new one sends "ready". htmx
  // processes the wrapper without its sse-connect: it re-processes an element only when
  // its attributes changed, so the same address could otherwise never connect again.
  function disconnect(wrapper) {
    if (wrapper.liveSource) wrapper.liveSource.close();
    wrapper.liveWorking = false;
    wrapper.liveViewer = undefined;
    wrapper.classList.remove("is-live");
    wrapper.removeAttribute("sse-connect");
    if (window.htmx) window.htmx.process(wrapper);
  }

  function reconnect(wrapper) {
    var url = (wrapper.getAttribute("sse-connect") || "").split("?")[0];
    disconnect(wrapper);
    if (!url || !window.htmx) return;
    wrapper.setAttribute("sse-connect", url + "?v=" + shownVersion(bodyIn(wrapper)));
    window.htmx.process(wrapper);
  }

  // A pushed view: the table as this browser's viewer sees it, drawn by whoever changed
  // it. It replaces the table as a poll's answer would – not while the player's own
  // request is on its way (that answer is at least as new; the newest view waits), and
  // never an older table than the one shown.
  function applyView(wrapper, version, html) {
    var body = bodyIn(wrapper);
    if (!body || version <= shownVersion(body)) return;
    if (viewerMismatch(wrapper)) {
      reconnect(wrapper);
      return;
    }
    if (Date.now() < userBusyUntil) {
      if (!wrapper.pendingView || version > wrapper.pendingView.version) {
        wrapper.pendingView = { version: version, html: html };
      }
      return;
    }
    wrapper.pendingView = null;
    var active = document.activeElement;
    focusBeforeSwap = active && active !== document.body && body.contains(active) ? { id: active.id } : null;
    window.htmx.swap(body, html, { swapStyle: "outerHTML" });
  }

  function watch(wrapper, source) {
    if (source.roomsWatched) return;
    source.roomsWatched = true;
    wrapper.liveSource = source;
    source.addEventListener("ready", function (event) {
      wrapper.liveWorking = true;
      wrapper.liveViewer = (event.data || "").split(" ")[1];
      wrapper.classList.add("is-live");
      if (viewerMismatch(wrapper)) reconnect(wrapper);
    });
    source.addEventListener("view", function (event) {
      var version = parseInt(event.lastEventId, 10);
      if (isNaN(version)) return;
      wrapper.liveNewest = Math.max(wrapper.liveNewest || 0, version);
      applyView(wrapper, version, event.data);
    });
    source.addEventListener("changed", function (event) {
      if (event.data === "gone") wrapper.liveGone = true;
      else wrapper.liveNewest = Math.max(wrapper.liveNewest || 0, parseInt(event.data, 10) || 0);
      if (Date.now() >= userBusyUntil) catchUp(wrapper); // else: after the own request settles
    });
    source.addEventListener("error", function () {
      wrapper.liveWorking = false; // the timed poll takes over until the next "ready"
      wrapper.classList.remove("is-live");
    });
  }

  document.addEventListener("htmx:sseOpen", function (event) {
    var wrapper = event.target.closest ? event.target.closest("[data-live-stream], [data-live-url]") : null;
    if (wrapper && event.detail && event.detail.source) {
      wrapper.setAttribute("data-live-stream", "");
      watch(wrapper, event.detail.source);
    }
  });

  document.addEventListener("htmx:sseClose", function (event) {
    var wrapper = streamOf(event.target);
    if (wrapper) wrapper.liveWorking = false;
  });

  // A demo opens its stream when a bot move is first pending (readers who only
  // read the rules never hold a connection), and only in a tab somebody sees.
  function connectDemo(root) {
    if (document.hidden) return;
    var body = root.querySelector ? root.querySelector("[data-demo-body][data-live-wait]") : null;
    if (!body && root.matches && root.matches("[data-demo-body][data-live-wait]")) body = root;
    if (!body || !window.htmx) return;
    var wrapper = body.closest("[data-live-url]");
    if (!wrapper || wrapper.hasAttribute("sse-connect")) return;
    wrapper.setAttribute("sse-connect", wrapper.dataset.liveUrl + "?v=" + shownVersion(body));
    window.htmx.process(wrapper);
  }

  // A demo in a tab nobody looks at closes its stream and sends no timed poll: its bots
  // move only while the reader's page is connected or asks (the server pauses the
  // demo's clock meanwhile), so a forgotten background tab costs the server nothing.
  // Back in view, the stream opens again with the version shown and the table catches up.
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) {
      connectDemo(document);
      return;
    }
    document.querySelectorAll("[data-demo][data-live-url][sse-connect]").forEach(disconnect);
  });

  function hiddenDemoPoll(detail) {
    return document.hidden && isPoll(detail) && detail.elt.hasAttribute("data-demo-body");
  }

  // The answer to a request from a table that was replaced meanwhile (a poll sent before
  // the player's move and answered after it): htmx would swap it into the detached old
  // table and look for its out-of-band parts (the live region) there, in vain
  // ("htmx:oobErrorNoTarget"). It goes to the table shown now if it is newer. The events
  // of a detached table never reach the document, so each table listens itself.
  var TABLES = "#room-body, [data-demo-body]";

  function answerForReplacedTable(event) {
    var old = event.currentTarget;
    if (old.isConnected || event.detail.target !== old) return;
    event.detail.shouldSwap = false;
    var xhr = event.detail.xhr;
    var current = old.id && document.getElementById(old.id);
    var answered = parseInt((xhr && xhr.getResponseHeader("X-Room-Version")) || "", 10);
    if (!current || !xhr || xhr.status !== 200 || isNaN(answered) || answered <= shownVersion(current)) return;
    if (isPoll(event.detail) && Date.now() < userBusyUntil) return;
    window.htmx.swap(current, event.detail.serverResponse, { swapStyle: "outerHTML" });
  }

  document.addEventListener("htmx:load", function (event) {
    var root = event.target;
    var tables = root.matches && root.matches(TABLES) ? [root] : [];
    if (root.querySelectorAll) tables = tables.concat(Array.prototype.slice.call(root.querySelectorAll(TABLES)));
    tables.forEach(function (table) {
      if (table.roomsGuarded) return;
      table.roomsGuarded = true;
      table.addEventListener("htmx:beforeSwap", answerForReplacedTable);
    });
  });

  document.addEventListener("htmx:beforeSwap", function (event) {
    var target = event.detail.target;
    var xhr = event.detail.xhr;
    if (isPoll(event.detail) && Date.now() < userBusyUntil) {
      event.detail.shouldSwap = false;
      return;
    }
    if (target && target.dataset && target.dataset.version && xhr) {
      // Never replace a newer table with an older answer that arrived late.
      var incoming = parseInt(xhr.getResponseHeader("X-Room-Version") || "", 10);
      if (!isNaN(incoming) && incoming < parseInt(target.dataset.version, 10)) {
        event.detail.shouldSwap = false;
        return;
      }
    }
    var active = document.activeElement;
    focusBeforeSwap = target && active && active !== document.body && target.contains(active)
      ? { id: active.id } : null;
    // A demo's setup form answered with the first table: bring the table into view.
    demoStarting = !!(target && target.classList && target.classList.contains("play-demo__body--setup"));
  });

  var demoStarting = false;
  var justLeft = false; // the leave dialog's answer is on its way

  // A game starts (a demo after „Spiel starten“, a room from its lobby): the table itself –
  // its bar, status and cards – at the top of the screen, on every screen size; smoothly
  // unless the reader asked for reduced motion.
  function showTable(scope) {
    var table = scope && scope.querySelector("section[data-phase]");
    if (!table) return;
    var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    table.scrollIntoView({ block: "start", behavior: still ? "auto" : "smooth" });
  }

  function tableBody() {
    return document.getElementById("room-body") || document.querySelector("[data-demo-body]");
  }

  var shownStatus = null;

  function roomStatus() {
    var body = document.getElementById("room-body");
    var match = body && /room--(\w+)/.exec(body.className);
    return match ? match[1] : null;
  }

  document.addEventListener("htmx:afterSettle", function (event) {
    var wrapper = streamOf(event.target);
    if (wrapper && viewerMismatch(wrapper)) reconnect(wrapper);
    if (wrapper && Date.now() >= userBusyUntil) {
      var pending = wrapper.pendingView;
      if (pending) applyView(wrapper, pending.version, pending.html);
      catchUp(wrapper);
    }
    // Lobby → table (or back): show the new view from its top, not where the old one was scrolled.
    var status = roomStatus();
    if (shownStatus && status && status !== shownStatus && !(shownStatus === "playing" && status === "finished")) {
      var roomBody = document.getElementById("room-body");
      if (status === "playing" && roomBody.querySelector("section[data-phase]")) showTable(roomBody);
      else roomBody.scrollIntoView({ block: "start" });
    }
    shownStatus = status;
    // Just left the room: the notice that says so (with the ways back) comes into view.
    var left = justLeft && document.getElementById("room-left");
    if (left) {
      justLeft = false;
      left.scrollIntoView({ block: "start" });
      left.focus({ preventScroll: true });
      return;
    }
    if (demoStarting) {
      demoStarting = false;
      var demoBody = event.target.closest && event.target.closest("[data-demo-body]");
      showTable(demoBody || document.querySelector(".play-demo__body--play"));
    }
    var before = focusBeforeSwap;
    focusBeforeSwap = null;
    if (!before || (document.activeElement && document.activeElement !== document.body)) return;
    var again = before.id && document.getElementById(before.id);
    if (again && !again.disabled) {
      again.focus({ preventScroll: true });
      return;
    }
    // The focused button is gone or disabled: land on the hand (or the table) instead of <body>.
    // A game's table marks the elements where focus may land with [data-focus].
    var fallback = document.querySelector("[data-focus]");
    if (fallback) {
      if (!fallback.matches("button, a, input")) fallback.setAttribute("tabindex", "-1");
      fallback.focus({ preventScroll: true });
    }
  });

  document.addEventListener("htmx:afterRequest", function (event) {
    if (!isPoll(event.detail)) userBusyUntil = 0;
    var elt = event.detail.elt;
    var dialog = elt && elt.closest && elt.closest("dialog");
    if (dialog && dialog.open) dialog.close();
    if (dialog && dialog.id === "leave-dialog" && event.detail.successful) justLeft = true;
    var body = tableBody();
    if (body) body.classList.toggle("is-offline", !event.detail.successful && !event.detail.xhr.status);
  });

  document.addEventListener("htmx:sendError", function () {
    var body = tableBody();
    if (body) body.classList.add("is-offline");
  });

  onReady(function () {
    shownStatus = roomStatus();
    prepare(document);
    connectDemo(document);
    if (window.htmx) window.htmx.onLoad(function (root) { prepare(root); connectDemo(root); });
    else document.addEventListener("htmx:load", function (event) { prepare(event.target); });
    window.setInterval(tick, 250);
  });
})();
