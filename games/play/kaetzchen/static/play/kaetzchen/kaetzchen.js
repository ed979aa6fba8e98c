/* Kätzchen-Angeln demo: shows what the server decided and asks at the right moment.
 *
 * The server owns the game. This script animates a flip the server has just
 * made (card from the pile to the row, the matching pair lit, the won row
 * sliding to the winner's pile), deals at the start of a game, lets Kätzchen
 * (and, with Auto, the visitor) flip after a short pause, opens the
 * confirmation and result dialogs and handles the keys.
 *
 * One input gate for taps, clicks and keys (seed 000: „es wird nie eine Karte zu
 * viel aufgedeckt“): while anything moves – the deal (also while it waits to be
 * seen), a flip, a collection – a tap or key only finishes it, and for a moment
 * afterwards further taps and keys are swallowed too (two quick taps end an
 * animation, never flip a card). A tap before the script has set up the board
 * does nothing but the same; on Kätzchen's turn, or while a request is on its
 * way, a tap only says „Warte auf den Gegner“ and sends nothing.
 */
(function () {
  "use strict";

  // The engine's own refusal text, rendered by the server (one source for the wording).
  function waitText() {
    var demo = document.getElementById("kz-demo");
    return (demo && demo.dataset.waitText) || "";
  }

  var reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
  // Durations in ms. Motion is skipped with reduced motion; pauses stay (they are not motion).
  var TIMES = {
    dealEach: 34, dealTravel: 240, flip: 300, highlight: 650, jack: 750, collect: 460,
    stagger: 55, catPause: 850, catFirstPause: 1900, autoPause: 650, retry: 2500
  };
  var MOTION = { dealEach: 1, dealTravel: 1, flip: 1, collect: 1, stagger: 1 };
  // Auto's faster speeds: every step is still shown, only shorter (the deal keeps its pace).
  var SPEEDS = {
    schnell: { flip: 220, highlight: 420, jack: 480, collect: 320, stagger: 35, catPause: 360, catFirstPause: 1200, autoPause: 240 },
    "sehr-schnell": { flip: 170, highlight: 280, jack: 320, collect: 230, stagger: 20, catPause: 130, catFirstPause: 800, autoPause: 90 }
  };
  // After a tap or key has cut an animation short, more taps and keys only end it, too.
  var QUIET_AFTER_SKIP = 500;
  var QUIET_AFTER_SWALLOWED = 300;

  var root = null; // #kz-demo, survives swaps
  var board = null; // #kz-game, replaced by every response
  var auto = false;
  var speed = "normal"; // Auto's speed
  var run = null; // the animation in progress (the deal also while it waits to be seen)
  var timer = null;
  var inFlight = null; // the form whose htmx request is on its way
  var quietUntil = 0; // taps and keys before this moment only end an animation
  var earlyTap = false; // a tap came before the board was set up
  var inView = false; // the demo is mostly on screen (the keys work then)
  var lastShownResult = null;

  function tempo() {
    // A multiplier for all durations (browser tests make games fast or slow with it).
    var stored = parseFloat(window.localStorage && localStorage.getItem("kaetzchen-tempo"));
    return stored > 0 ? stored : 1;
  }

  function ms(name) {
    if (reducedMotion.matches && MOTION[name]) return 0;
    var table = auto && SPEEDS[speed] && SPEEDS[speed][name] !== undefined ? SPEEDS[speed] : TIMES;
    var value = table[name] * tempo();
    if (reducedMotion.matches && (name === "highlight" || name === "jack")) value = Math.min(value, 400);
    return value;
  }

  // ------------------------------------------------------------ Animation runs

  function startRun(b) {
    var animations = [];
    var waits = [];
    var skipping = false;
    run = {
      skip: function () {
        if (skipping) return;
        skipping = true;
        animations.forEach(function (a) { try { a.finish(); } catch (e) { a.cancel(); } });
        waits.slice().forEach(function (done) { done(); });
      },
      get skipping() { return skipping; },
      animate: function (el, frames, duration, options) {
        if (skipping || !duration || !el.animate) return Promise.resolve();
        var opts = Object.assign({ duration: duration, easing: "cubic-bezier(.2,.7,.3,1)" }, options || {});
        var animation = el.animate(frames, opts);
        animations.push(animation);
        return animation.finished.catch(function () {});
      },
      // Resolves when `release` is called or the run is skipped.
      hold: function (start) {
        if (skipping) return Promise.resolve();
        return new Promise(function (resolve) {
          function done() {
            var index = waits.indexOf(done);
            if (index >= 0) waits.splice(index, 1);
            resolve();
          }
          waits.push(done);
          start(done);
        });
      },
      wait: function (duration) {
        if (skipping || !duration) return Promise.resolve();
        return new Promise(function (resolve) {
          var handle;
          function done() {
            clearTimeout(handle);
            var index = waits.indexOf(done);
            if (index >= 0) waits.splice(index, 1);
            resolve();
          }
          handle = setTimeout(done, duration);
          waits.push(done);
        });
      }
    };
    b.classList.add("is-animating");
    return run;
  }

  function endRun(thisRun, b) {
    if (run === thisRun) run = null;
    b.classList.remove("is-animating");
  }

  function finishAnimation() {
    if (run) run.skip();
  }

  // The one gate for taps, clicks and keys: true when this input only ends an animation
  // (or comes too soon after one was ended) and must do nothing else.
  function gateInput() {
    var now = performance.now();
    if (!board || run) {
      finishAnimation();
      if (!board) earlyTap = true;
      quietUntil = Math.max(quietUntil, now + QUIET_AFTER_SKIP);
      return true;
    }
    if (now < quietUntil) {
      quietUntil = Math.max(quietUntil, now + QUIET_AFTER_SWALLOWED);
      return true;
    }
    return false;
  }

  // ------------------------------------------------------------ Helpers

  function $(selector, scope) { return (scope || board).querySelector(selector); }
  function $$(selector, scope) { return Array.prototype.slice.call((scope || board).querySelectorAll(selector)); }
  function still(b) { return b === board; }

  function cardsText(count) { return count === 1 ? "1 Karte" : count + " Karten"; }

  function setCount(seat, count, b) {
    var badge = $('[data-kz-count="' + seat + '"]', b);
    var text = $('[data-kz-count-text="' + seat + '"]', b);
    if (badge) badge.textContent = String(count);
    if (text) text.textContent = cardsText(count);
  }

  function say(text) {
    var live = document.getElementById("kz-live");
    if (!live || !text) return;
    // Clearing first makes screen readers announce a repeated text, too.
    live.textContent = "";
    window.setTimeout(function () { live.textContent = text; }, 30);
  }

  function showStatus(text) {
    var status = $("[data-kz-status]");
    if (status) status.textContent = text;
    say(text);
  }

  function flash(text, kind, b) {
    var el = $("[data-kz-flash]", b);
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("kz-flash--jack", kind === "jack");
    el.classList.add("is-visible");
  }

  function hideFlash(b) {
    var el = $("[data-kz-flash]", b);
    if (el) el.classList.remove("is-visible");
  }

  function delta(from, to) {
    var a = from.getBoundingClientRect();
    var b = to.getBoundingClientRect();
    return { x: a.left + a.width / 2 - (b.left + b.width / 2), y: a.top + a.height / 2 - (b.top + b.height / 2) };
  }

  function clearTimer() {
    if (timer) window.clearTimeout(timer);
    timer = null;
  }

  function openDialog() {
    return document.querySelector("#kz-demo dialog[open]");
  }

  // ------------------------------------------------------------ Requests

  function submit(selector) {
    var form = $(selector);
    if (!form || inFlight) return;
    if (form.requestSubmit) form.requestSubmit();
    else htmx.trigger(form, "submit");
  }

  function askCat() { submit("form[data-kz-cat]"); }
  function flipOwn() { submit("#kz-flip-form"); }

  // The visitor asks to flip (tap, click or key), past the gate. False: nothing is sent.
  function mayFlip() {
    if (board.dataset.phase === "over") return false;
    var waiting = board.dataset.turn === "cat" ||
      (inFlight && (inFlight.id === "kz-flip-form" || inFlight.hasAttribute("data-kz-cat")));
    if (waiting) {
      // The server would refuse this flip, too; nothing changes, and Kätzchen keeps its pace.
      showStatus(waitText());
      return false;
    }
    return !inFlight;
  }

  // What happens after the board has come to rest: the next flip, or the result.
  function settle() {
    clearTimer();
    if (!board) return;
    var phase = board.dataset.phase;
    if (phase === "over") {
      showResult();
      return;
    }
    if (openDialog()) return; // a confirmation is open: nothing moves meanwhile
    var turn = board.dataset.turn;
    if (turn === "cat") {
      var pause = board.dataset.catStarts && board.dataset.moves === "0" ? ms("catFirstPause") : ms("catPause");
      timer = window.setTimeout(askCat, pause);
    } else if (turn === "you" && auto) {
      timer = window.setTimeout(flipOwn, ms("autoPause"));
    }
  }

  function showResult() {
    var dialog = document.getElementById("kz-result");
    if (!dialog || lastShownResult === board) return;
    lastShownResult = board;
    if (dialog.open) dialog.close();
    if (dialog.showModal) dialog.showModal();
    else dialog.setAttribute("open", "");
  }

  // ------------------------------------------------------------ Deal

  function deal(thisRun, b) {
    var deck = $(".kz-deck", b);
    var fx = $("[data-kz-fx]", b);
    var piles = { you: $('[data-kz-pile="you"]', b), cat: $('[data-kz-pile="cat"]', b) };
    var totals = { you: Number(b.dataset.you), cat: Number(b.dataset.cat) };
    var counts = { you: 0, cat: 0 };
    b.classList.add("is-dealing");
    setCount("you", 0, b);
    setCount("cat", 0, b);
    var flights = [];
    var total = totals.you + totals.cat;
    var index = 0;

    function next() {
      if (thisRun.skipping || index >= total) return Promise.resolve();
      // Dealt alternately, the visitor first – as the engine deals.
      var seat = index % 2 === 0 ? "you" : "cat";
      index += 1;
      var card = document.createElement("span");
      card.className = "kz-fx__card";
      fx.appendChild(card);
      var fxBox = fx.getBoundingClientRect();
      var from = deck.getBoundingClientRect();
      var to = piles[seat].getBoundingClientRect();
      card.style.left = from.left - fxBox.left + "px";
      card.style.top = from.top - fxBox.top + "px";
      var flight = thisRun.animate(card, [
        { transform: "translate(0, 0) rotate(0deg)" },
        { transform: "translate(" + (to.left - from.left) + "px, " + (to.top - from.top) + "px) rotate(" + (seat === "you" ? 4 : -4) + "deg)" }
      ], ms("dealTravel"), { fill: "forwards" }).then(function () {
        card.remove();
        counts[seat] += 1;
        setCount(seat, Math.min(counts[seat], totals[seat]), b);
      });
      flights.push(flight);
      return thisRun.wait(ms("dealEach")).then(next);
    }

    return next().then(function () { return Promise.all(flights); }).then(function () {
      fx.textContent = "";
      setCount("you", totals.you, b);
      setCount("cat", totals.cat, b);
      b.classList.remove("is-dealing");
    });
  }

  // ------------------------------------------------------------ Flip

  function showFlip(thisRun, b) {
    var seat = b.dataset.flipSeat;
    var kind = b.dataset.flipKind;
    var won = Number(b.dataset.flipCount || 0);
    var final = Number(b.dataset[seat]);
    var pile = $('[data-kz-pile="' + seat + '"]', b);
    var card = $(".kz-card.is-new", b);
    if (won) setCount(seat, final - won, b);
    b.classList.add("is-played");
    var travel = card && pile ? delta(pile, card) : { x: 0, y: 0 };
    if (card) card.classList.add("is-turning");
    var flipIn = card ? thisRun.animate(card, [
      { transform: "perspective(700px) translate(" + travel.x + "px, " + travel.y + "px) rotateY(180deg)", zIndex: 3 },
      { transform: "perspective(700px) translate(" + travel.x * 0.3 + "px, " + travel.y * 0.3 + "px) rotateY(90deg) scale(1.08)", zIndex: 3, offset: 0.55 },
      { transform: "perspective(700px) translate(0, 0) rotateY(0deg)", zIndex: 3 }
    ], ms("flip")) : Promise.resolve();

    return flipIn.then(function () {
      if (card) card.classList.remove("is-turning");
      if (!won) return null;
      var highlighted = kind === "jack" ? $$(".kz-card.is-new", b) : $$(".kz-card.is-match", b);
      highlighted.forEach(function (el) { el.classList.add(kind === "jack" ? "is-jack" : "is-highlight"); });
      flash(kind === "jack" ? "Bube räumt ab!" : "Geangelt!", kind, b);
      return thisRun.wait(ms(kind === "jack" ? "jack" : "highlight")).then(function () {
        hideFlash(b);
        var wonCards = $$(".kz-card.is-won", b);
        var flights = wonCards.map(function (el, i) {
          var to = delta(pile, el);
          return thisRun.animate(el, [
            { transform: "none", opacity: 1 },
            { transform: "translate(" + to.x + "px, " + to.y + "px) scale(0.8)", opacity: 0.35 }
          ], ms("collect"), { delay: i * ms("stagger"), fill: "forwards", easing: "cubic-bezier(.5,0,.3,1)" });
        });
        return Promise.all(flights).then(function () {
          wonCards.forEach(function (el) { el.remove(); });
        });
      });
    }).then(function () {
      hideFlash(b);
      setCount(seat, final, b);
      var tableCount = $("[data-kz-table-count]", b);
      if (tableCount) tableCount.textContent = cardsText(Number(tableCount.getAttribute("data-kz-table-count")));
      $$(".kz-card.is-new", b).forEach(function (el) { el.classList.add("is-last"); });
      var row = $(".kz-row", b);
      if (row && !$(".kz-card", b) && !$(".kz-table__empty", b)) {
        var empty = document.createElement("p");
        empty.className = "kz-table__empty";
        empty.textContent = "Der Tisch ist leer.";
        row.after(empty);
      }
    });
  }

  // ------------------------------------------------------------ A new board arrives

  function play(kind, whenSeen) {
    var b = board;
    var thisRun = startRun(b);
    var ready = Promise.resolve();
    if (whenSeen) {
      // The deal waits until the reader sees the table; a tap or key meanwhile skips it.
      b.classList.add("is-waiting");
      ready = thisRun.hold(function (release) { whenVisible(b, release); }).then(function () {
        b.classList.remove("is-waiting");
      });
    }
    var step = ready.then(function () {
      return kind === "deal" ? deal(thisRun, b) : showFlip(thisRun, b);
    });
    return step.then(function () {
      endRun(thisRun, b);
      // A newer board may have arrived meanwhile; it runs its own course.
      if (still(b)) settle();
    });
  }

  function whenVisible(el, callback) {
    if (!("IntersectionObserver" in window)) { callback(); return; }
    var observer = new IntersectionObserver(function (entries) {
      if (!still(el)) { observer.disconnect(); return; }
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        observer.disconnect();
        callback();
      }
    }, { threshold: 0.35 });
    observer.observe(el);
  }

  // The keys work while the demo is mostly on screen (or the reader is inside it).
  function watchView() {
    if (!("IntersectionObserver" in window)) { inView = true; return; }
    var observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (entry) {
        var screen = entry.rootBounds ? entry.rootBounds.height : window.innerHeight;
        inView = entry.isIntersecting &&
          (entry.intersectionRatio >= 0.6 || entry.intersectionRect.height >= 0.6 * screen);
      });
    }, { threshold: [0, 0.2, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1] });
    observer.observe(root);
  }

  function setUp(newBoard, firstLoad) {
    clearTimer();
    if (run) run.skip();
    board = newBoard;
    board.dataset.ready = "1";
    auto = firstLoad ? board.dataset.auto === "1" : auto;
    speed = firstLoad ? board.dataset.speed || "normal" : speed;
    var autoButton = document.getElementById("kz-auto");
    if (autoButton) {
      autoButton.setAttribute("aria-pressed", auto ? "true" : "false");
      autoButton.closest("form").hidden = false;
    }
    showSpeed();
    // The confirmation forms live outside the board: give them the current version.
    $$("[data-kz-version]", root).forEach(function (input) { input.value = board.dataset.version; });
    if (!firstLoad) say(board.dataset.status);

    if (board.dataset.flipSeat) {
      play("flip");
    } else if (board.dataset.phase === "deal") {
      play("deal", firstLoad);
    } else {
      settle();
    }
    if (earlyTap) {
      // Taps before the board was ready: they only end what would have moved.
      earlyTap = false;
      quietUntil = performance.now() + QUIET_AFTER_SKIP;
      finishAnimation();
      if (board.dataset.turn === "cat" && board.dataset.phase === "play") showStatus(waitText());
    }
  }

  // ------------------------------------------------------------ Input

  function isControl(el) {
    return el && el !== board && el.closest && el.closest("a, button, input, select, textarea, summary, [contenteditable], dialog, [tabindex]:not(#kz-game)");
  }

  function onClick(event) {
    var target = event.target;
    if (!target.closest || !target.closest("#kz-demo")) return;
    if (!board) {
      // The script is not set up yet: a tap on the pile only ends what would move.
      if (target.closest("[data-kz-flip]")) {
        event.preventDefault();
        event.stopPropagation();
        gateInput();
      }
      return;
    }
    if (target.closest("[data-kz-skip]")) {
      event.preventDefault();
      finishAnimation();
      quietUntil = performance.now() + QUIET_AFTER_SKIP;
      return;
    }
    var free = target.closest("[data-kz-free]");
    if (free) {
      finishAnimation();
    } else if (board.contains(target) && gateInput()) {
      // During an animation (and just after a tap ended one) a tap only finishes it.
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    if (target.closest("[data-kz-flip]") && !mayFlip()) {
      event.preventDefault();
      event.stopPropagation();
      return;
    }
    var close = target.closest("[data-kz-close]");
    if (close) {
      event.preventDefault();
      close.closest("dialog").close();
    }
  }

  function onSubmit(event) {
    var form = event.target;
    var confirmId = form.getAttribute("data-kz-confirm");
    if (confirmId) {
      var dialog = document.getElementById(confirmId);
      if (dialog && dialog.showModal) {
        event.preventDefault();
        event.stopPropagation();
        clearTimer();
        finishAnimation();
        dialog.showModal();
      }
      return;
    }
    if (form.hasAttribute("data-kz-auto")) {
      event.preventDefault();
      event.stopPropagation();
      toggleAuto(form);
      return;
    }
    if (form.hasAttribute("data-kz-speed")) {
      event.preventDefault();
      event.stopPropagation();
      chooseSpeed(form, event.submitter);
      return;
    }
    var dialogOfForm = form.closest("dialog");
    if (dialogOfForm && form.getAttribute("method") !== "dialog") {
      window.setTimeout(function () { if (dialogOfForm.open) dialogOfForm.close(); }, 0);
    }
  }

  function remember(form, data) {
    fetch(form.action, { method: "POST", body: data, headers: { "HX-Request": "true" }, credentials: "same-origin", keepalive: true })
      .catch(function () {});
  }

  function toggleAuto(form) {
    auto = !auto;
    form.querySelector("button").setAttribute("aria-pressed", auto ? "true" : "false");
    var data = new FormData(form);
    data.set("an", auto ? "1" : "0");
    form.querySelector('[name="an"]').value = auto ? "0" : "1";
    remember(form, data);
    showSpeed();
    say(auto ? "Auto ist an: deine Karten werden automatisch aufgedeckt." : "Auto ist aus: du deckst selbst auf.");
    if (!run) settle();
  }

  // Auto's speed: shown (and used) only while Auto is on.
  function showSpeed() {
    var form = document.querySelector("#kz-demo form[data-kz-speed]");
    if (!form) return;
    form.hidden = !auto;
    $$("button[name=tempo]", form).forEach(function (button) {
      button.setAttribute("aria-pressed", button.value === speed ? "true" : "false");
    });
  }

  function chooseSpeed(form, button) {
    if (!button || button.name !== "tempo" || button.value === speed) return;
    speed = button.value;
    if (board) board.dataset.speed = speed;
    showSpeed();
    var data = new FormData(form);
    data.set("tempo", speed);
    remember(form, data);
    say("Tempo: " + button.textContent.trim() + ".");
    // The next pause already runs at the new speed.
    if (!run && timer) settle();
  }

  function anyDialogOpen() {
    return !!document.querySelector("dialog[open]");
  }

  function keyIsForUs(event) {
    if (!root || event.defaultPrevented || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (anyDialogOpen()) return false;
    var active = document.activeElement;
    if (root.contains(active)) return true;
    // Space and Enter stay with a form field, link or button elsewhere on the page.
    if (active && active !== document.body && (isControl(active) || active.isContentEditable)) {
      return active.id === "inhalt"; // the skip link's target (main) is no control
    }
    // On the full-screen page the game is the page; on the game page, once it is in view.
    return document.body.classList.contains("page-demo") || inView;
  }

  function onKeyDown(event) {
    if (event.key === "Tab" || event.key === "Shift") return;
    if (!keyIsForUs(event)) return;
    var flipKey = event.key === " " || event.key === "Enter";
    // On the game page, unless the reader is inside the demo, only Space and Enter are
    // the demo's: arrow keys and Page Down keep scrolling the article.
    var inside = root.contains(document.activeElement) || document.body.classList.contains("page-demo");
    if (!flipKey && !inside) return;
    if (event.repeat) {
      // A held key never flips card after card.
      if (flipKey) event.preventDefault();
      return;
    }
    if (!board || run || performance.now() < quietUntil) {
      // Any key only finishes the animation (or the deal that waits to be seen).
      event.preventDefault();
      gateInput();
      return;
    }
    if (!flipKey) return;
    var active = document.activeElement;
    if (isControl(active)) return; // that control acts itself (the flip buttons pass the gate as clicks)
    if (board.dataset.phase === "over" && !inside) return; // nothing to flip: Space scrolls
    event.preventDefault();
    if (mayFlip()) flipOwn();
  }

  function onKeyUp(event) {
    // Space clicks a focused button on key-up: not when that key has just ended an animation.
    if (performance.now() < quietUntil && (event.key === " " || event.key === "Enter")) {
      event.preventDefault();
    }
  }

  // ------------------------------------------------------------ Wiring

  function init() {
    root = document.getElementById("kz-demo");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    root.classList.add("kz-demo--js");
    root.addEventListener("submit", onSubmit, true);
    root.addEventListener("close", function () { if (!run) settle(); }, true);
    watchView();

    root.addEventListener("htmx:beforeRequest", function (event) {
      inFlight = event.detail.elt && event.detail.elt.closest ? event.detail.elt.closest("form") || event.detail.elt : root;
      clearTimer();
    });
    root.addEventListener("htmx:afterRequest", function (event) {
      inFlight = null;
      if (!event.detail.successful) {
        showStatus("Keine Verbindung zum Server – bitte versuche es gleich noch einmal.");
        if (board && board.dataset.turn === "cat") timer = window.setTimeout(askCat, ms("retry"));
      }
    });
    root.addEventListener("htmx:beforeSwap", function () { clearTimer(); if (run) run.skip(); });

    htmx.onLoad(onNewContent);
  }

  function onNewContent(element) {
    var newBoard = element.id === "kz-game" ? element : element.querySelector && element.querySelector("#kz-game");
    if (!newBoard || newBoard === board) return;
    var firstLoad = board === null;
    var hadFocus = !firstLoad && (document.activeElement === document.body || !document.activeElement);
    setUp(newBoard, firstLoad);
    if (hadFocus && !openDialog()) {
      var target = document.getElementById("kz-flip");
      (target && !target.disabled ? target : newBoard).focus({ preventScroll: true });
    }
  }

  // The game page loads its (per-visitor) demo region after itself, this script with it:
  // its board may have been swapped in (and its htmx:load fired) before the script ran.
  // On the full-screen page htmx's first load event comes first and this is a no-op.
  function boot() {
    init();
    if (root) {
      window.setTimeout(function () { onNewContent(root); }, 0);
      return;
    }
    htmx.onLoad(function (element) {
      if (root) return;
      init();
      if (root) onNewContent(element);
    });
  }

  // Taps and keys are gated from the moment the script runs, before htmx has set up the board.
  document.addEventListener("click", onClick, true);
  document.addEventListener("keydown", onKeyDown);
  document.addEventListener("keyup", onKeyUp, true);
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", boot);
  else boot();
})();
