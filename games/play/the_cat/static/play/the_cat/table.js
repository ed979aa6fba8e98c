/* The Cat table: keep the player's choice and keyboard focus while the table is redrawn.
 *
 * Other players and bots change the middle all the time, so the table is
 * swapped in several times a second. A chosen hand card (a radio button) would
 * be lost with each swap; this script checks it again if the card is still in
 * the hand. After the player's own move the clicked button is usually gone (or
 * was disabled while the request ran, which drops focus): focus then lands on
 * the table's [data-focus] element – the first hand card or the first stack.
 * Everything else works without JavaScript.
 */
(function () {
  "use strict";

  if (window.theCatTableLoaded) return;
  window.theCatTableLoaded = true;

  var chosen = null; // id of the checked hand card's radio button
  var focusAfterMove = null; // {id} of the focused control when the player's own move was sent
  var aimed = null; // {card, slot} of the middle card the player just clicked
  var late = null; // {slot, text, until, shaken} while a lost race is shown at the card
  var LATE_MS = 3500;

  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest('.cat button[name="nimm"]');
    if (!button) return;
    var item = button.closest(".cat-cards__item");
    var slot = item ? Array.prototype.indexOf.call(item.parentNode.children, item) : -1;
    aimed = { card: button.value, slot: slot, until: Date.now() + LATE_MS };
  });

  function lostRace() {
    // After a click on a middle card, at each new picture of the table: did the card
    // come into the hand, is it still in the middle (the answer is not here yet), or
    // did someone else get it?
    var shot = aimed;
    if (!shot || Date.now() > shot.until) { aimed = null; return; }
    var table = document.querySelector(".cat");
    if (!table || table.querySelector('.cat-middle .cat-card[data-card="' + shot.card + '"]')) return;
    aimed = null;
    if (table.querySelector('.cat-hand .cat-card[data-card="' + shot.card + '"]')) return;
    var mood = shot.card.replace(/-\d+$/, "");
    var taker = table.querySelector('.cat-taken [data-slot="' + shot.slot + '"][data-mood="' + mood + '"]');
    var text = taker ? "Zu spät – " + taker.textContent + " war schneller" : "Zu spät – jemand war schneller";
    late = { slot: shot.slot, text: text, until: Date.now() + LATE_MS, shaken: false };
    window.setTimeout(showLate, LATE_MS + 50);
  }

  function showLate() {
    document.querySelectorAll(".cat-late").forEach(function (old) { old.remove(); });
    if (!late || Date.now() > late.until) { late = null; return; }
    var items = document.querySelectorAll(".cat-middle .cat-cards__item");
    var item = items[late.slot];
    var card = item && item.querySelector(".cat-card");
    if (!card) return;
    var bubble = document.createElement("span");
    bubble.className = "cat-late";
    bubble.setAttribute("aria-hidden", "true"); // the notice under the table says it for screen readers
    bubble.textContent = late.text;
    item.appendChild(bubble);
    card.classList.add("is-late");
    if (!late.shaken) {
      card.classList.add("is-late--shake");
      late.shaken = true;
    }
  }

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.matches && input.matches("input.cat-pick") && input.checked) chosen = input.id;
  });

  document.addEventListener("htmx:beforeRequest", function (event) {
    var elt = event.detail && event.detail.elt;
    if (!elt || !elt.closest || !elt.closest(".cat") || elt.tagName !== "FORM") return;
    var active = document.activeElement;
    focusAfterMove = active && active !== document.body && elt.contains(active) ? { id: active.id } : null;
  });

  // A new picture of the table: an answer, a poll, or a pushed view (rooms.js swaps
  // those itself; htmx:load fires for every new content either way).
  function redrawn() {
    lostRace();
    if (late) showLate();
  }
  document.addEventListener("htmx:load", redrawn);

  function restoreChoice() {
    if (!chosen) return;
    var input = document.getElementById(chosen);
    if (input) input.checked = true;
    else chosen = null; // the card left the hand (swapped, or the stack went back)
  }
  // At once with the new table, in the same task as the swap: htmx settles 20 ms (on a
  // busy machine more) later, and a click on a middle card in between found no card
  // chosen – the form's own check stopped it, and the click did nothing.
  document.addEventListener("htmx:afterSwap", restoreChoice);

  document.addEventListener("htmx:afterSettle", function () {
    redrawn();
    restoreChoice();
    var before = focusAfterMove;
    focusAfterMove = null;
    if (!before || (document.activeElement && document.activeElement !== document.body)) return;
    var again = before.id && document.getElementById(before.id);
    var target = again && !again.disabled ? again : document.querySelector(".cat [data-focus]");
    if (!target) return;
    if (!target.matches("button, a, input")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  });
})();
