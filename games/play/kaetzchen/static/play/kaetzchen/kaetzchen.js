/* Kätzchen-Angeln demo: shows what the server decided and asks at the right moment.
 *
 * The server owns the game. This script animates a flip the server has just
 * made (card from the pile to the row, the matching pair lit, the won row
 * sliding to the winner's pile), deals at the start of a game, lets Kätzchen
 * (and, with Auto, the visitor) flip after a short pause, opens the
 * confirmation and result dialogs and handles the keys. A tap or key during an
 * animation only finishes the animation.
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

  var root = null; // #kz-demo, survives swaps
  var board = null; // #kz-game, replaced by every response
  var auto = false;
  var run = null; // the animation in progress
  var timer = null;
  var inFlight = false;
  var swallowClicksUntil = 0;
  var lastShownResult = null;

  function tempo() {
    // A multiplier for all durations (browser tests make games fast or slow with it).
    var stored = parseFloat(window.localStorage && localStorage.getItem("kaetzchen-tempo"));
    return stored > 0 ? stored : 1;
  }

  function ms(name) {
    if (reducedMotion.matches && MOTION[name]) return 0;
    var value = TIMES[name] * tempo();
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

  function play(kind) {
    var b = board;
    var thisRun = startRun(b);
    var step = kind === "deal" ? deal(thisRun, b) : showFlip(thisRun, b);
    return step.then(function () {
      endRun(thisRun, b);
      // A newer board may have arrived meanwhile; it runs its own course.
      if (still(b)) settle();
    });
  }

  function whenVisible(el, callback) {
    if (!("IntersectionObserver" in window)) { callback(); return; }
    var observer = new IntersectionObserver(function (entries) {
      if (entries.some(function (entry) { return entry.isIntersecting; })) {
        observer.disconnect();
        callback();
      }
    }, { threshold: 0.35 });
    observer.observe(el);
  }

  function setUp(newBoard, firstLoad) {
    clearTimer();
    if (run) run.skip();
    board = newBoard;
    board.dataset.ready = "1";
    auto = firstLoad ? board.dataset.auto === "1" : auto;
    var autoButton = document.getElementById("kz-auto");
    if (autoButton) {
      autoButton.setAttribute("aria-pressed", auto ? "true" : "false");
      autoButton.closest("form").hidden = false;
    }
    // The confirmation forms live outside the board: give them the current version.
    $$("[data-kz-version]", root).forEach(function (input) { input.value = board.dataset.version; });
    if (!firstLoad) say(board.dataset.status);

    if (board.dataset.flipSeat) {
      play("flip");
    } else if (board.dataset.phase === "deal") {
      if (firstLoad) {
        board.classList.add("is-waiting");
        whenVisible(board, function () {
          if (board === newBoard) { board.classList.remove("is-waiting"); play("deal"); }
        });
      } else {
        play("deal");
      }
    } else {
      settle();
    }
  }

  // ------------------------------------------------------------ Input

  function isControl(el) {
    return el && el !== board && el.closest && el.closest("a, button, input, select, textarea, summary, [contenteditable], dialog, [tabindex]:not(#kz-game)");
  }

  function onClick(event) {
    var target = event.target;
    if (!board || !target.closest) return;
    if (target.closest("[data-kz-skip]")) {
      event.preventDefault();
      finishAnimation();
      return;
    }
    var inBoard = board.contains(target);
    if (inBoard && (run || performance.now() < swallowClicksUntil) && !target.closest("[data-kz-free]")) {
      // During an animation a tap only finishes it – it never flips a card.
      event.preventDefault();
      event.stopPropagation();
      finishAnimation();
      return;
    }
    if (target.closest("[data-kz-free]")) finishAnimation();
    if (target.closest("[data-kz-flip]") && board.dataset.turn === "cat") {
      // The server refuses this flip too; say so at once.
      showStatus(waitText());
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
    var dialogOfForm = form.closest("dialog");
    if (dialogOfForm && form.getAttribute("method") !== "dialog") {
      window.setTimeout(function () { if (dialogOfForm.open) dialogOfForm.close(); }, 0);
    }
  }

  function toggleAuto(form) {
    auto = !auto;
    form.querySelector("button").setAttribute("aria-pressed", auto ? "true" : "false");
    var data = new FormData(form);
    data.set("an", auto ? "1" : "0");
    form.querySelector('[name="an"]').value = auto ? "0" : "1";
    fetch(form.action, { method: "POST", body: data, headers: { "HX-Request": "true" }, credentials: "same-origin" })
      .catch(function () {});
    say(auto ? "Auto ist an: deine Karten werden automatisch aufgedeckt." : "Auto ist aus: du deckst selbst auf.");
    if (!run) settle();
  }

  function keyIsForUs(event) {
    if (!board || event.ctrlKey || event.metaKey || event.altKey) return false;
    if (openDialog()) return false;
    var active = document.activeElement;
    if (root.contains(active)) return true;
    // On the full-screen page the game is the page: keys work without focusing it first.
    var fullPage = document.body.classList.contains("page-demo");
    return fullPage && (!active || active === document.body || active.id === "inhalt");
  }

  function onKeyDown(event) {
    if (!keyIsForUs(event)) return;
    if (event.key === "Tab" || event.key === "Shift") return;
    if (run) {
      // Any key only finishes the animation.
      event.preventDefault();
      finishAnimation();
      swallowClicksUntil = performance.now() + 500;
      return;
    }
    if (event.key !== " " && event.key !== "Enter") return;
    if (performance.now() < swallowClicksUntil) { event.preventDefault(); return; }
    var active = document.activeElement;
    if (isControl(active) && !active.hasAttribute("data-kz-flip")) return; // that control acts itself
    if (active && active.hasAttribute && active.hasAttribute("data-kz-flip")) return; // the button clicks itself
    event.preventDefault();
    if (board.dataset.phase === "over") return;
    if (board.dataset.turn === "cat") showStatus(waitText());
    var button = document.getElementById("kz-flip");
    if (button && !button.disabled) button.click();
  }

  function onKeyUp(event) {
    // Space clicks a focused button on key-up: not when that key has just ended an animation.
    if (performance.now() < swallowClicksUntil && (event.key === " " || event.key === "Enter")) {
      event.preventDefault();
    }
  }

  // ------------------------------------------------------------ Wiring

  function init() {
    root = document.getElementById("kz-demo");
    if (!root || root.dataset.ready) return;
    root.dataset.ready = "1";
    root.classList.add("kz-demo--js");
    root.addEventListener("click", onClick, true);
    root.addEventListener("submit", onSubmit, true);
    document.addEventListener("keydown", onKeyDown);
    document.addEventListener("keyup", onKeyUp, true);
    root.addEventListener("close", function () { if (!run) settle(); }, true);

    root.addEventListener("htmx:beforeRequest", function () { inFlight = true; clearTimer(); });
    root.addEventListener("htmx:afterRequest", function (event) {
      inFlight = false;
      if (!event.detail.successful) {
        showStatus("Keine Verbindung zum Server – bitte versuche es gleich noch einmal.");
        if (board && board.dataset.turn === "cat") timer = window.setTimeout(askCat, ms("retry"));
      }
    });
    root.addEventListener("htmx:beforeSwap", function () { clearTimer(); if (run) run.skip(); });

    htmx.onLoad(function (element) {
      var newBoard = element.id === "kz-game" ? element : element.querySelector && element.querySelector("#kz-game");
      if (!newBoard || newBoard === board) return;
      var firstLoad = board === null;
      var hadFocus = !firstLoad && (document.activeElement === document.body || !document.activeElement);
      setUp(newBoard, firstLoad);
      if (hadFocus && !openDialog()) {
        var target = document.getElementById("kz-flip");
        (target && !target.disabled ? target : newBoard).focus({ preventScroll: true });
      }
    });
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
