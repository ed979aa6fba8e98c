/* Katz und Maus: dragging a card on top of the two-step move (choose a card, then a target).
 *
 * Pointer events, so a finger drags as well as a mouse (HTML5 drag and drop does nothing
 * on touch screens). Pressing a card and moving it more than a few pixels chooses it (its
 * radio), so the piles it may go to light up; a copy of the card follows the pointer, and
 * the pile under it is marked as the drop target. Letting go there presses that pile's
 * button for this card – the same form post as a click. A tap without moving stays a
 * tap (it chooses the card); without this script every move works by clicks, taps or
 * the keyboard.
 */
(function () {
  "use strict";

  if (window.katzUndMausTable) return;
  window.katzUndMausTable = true;

  var SLOP = 8; // px a pointer moves before a press becomes a drag
  var press = null; // {id, x, y, source, value} while a pointer is down on a card
  var drag = null; // {ghost, dx, dy, pile} once the press became a drag
  var swallowClick = false; // the click that follows a drag's pointerup

  function pileAt(x, y) {
    var el = document.elementFromPoint(x, y);
    return el && el.closest ? el.closest(".km-build, .km-dpile") : null;
  }

  function targetIn(pile) {
    return press && pile ? pile.querySelector(".km-go--" + press.value) : null;
  }

  function mark(pile) {
    document.querySelectorAll(".km-build.is-drop, .km-dpile.is-drop").forEach(function (el) {
      if (el !== pile) el.classList.remove("is-drop");
    });
    if (pile && targetIn(pile)) pile.classList.add("is-drop");
  }

  function finish() {
    if (drag) drag.ghost.remove();
    document.documentElement.classList.remove("km-dragging");
    mark(null);
    press = null;
    drag = null;
  }

  document.addEventListener("pointerdown", function (event) {
    if (event.button !== 0 || !event.isPrimary) return;
    var source = event.target.closest && event.target.closest("label.km-src");
    if (!source) return;
    var radio = source.querySelector(".km-src__input");
    if (!radio || radio.disabled) return;
    press = { id: event.pointerId, x: event.clientX, y: event.clientY, source: source, value: radio.value };
  });

  document.addEventListener("pointermove", function (event) {
    if (!press || event.pointerId !== press.id) return;
    if (!drag) {
      if (Math.abs(event.clientX - press.x) + Math.abs(event.clientY - press.y) < SLOP) return;
      var radio = press.source.querySelector(".km-src__input");
      radio.checked = true; // the card is chosen: its targets appear
      radio.dispatchEvent(new Event("change", { bubbles: true }));
      var card = press.source.querySelector(".km-card") || press.source;
      var box = card.getBoundingClientRect();
      var ghost = card.cloneNode(true);
      ghost.classList.add("km-ghost");
      ghost.setAttribute("aria-hidden", "true");
      ghost.style.width = box.width + "px";
      ghost.style.height = box.height + "px";
      (press.source.closest(".km") || document.body).appendChild(ghost); // keeps the table's card styles
      drag = { ghost: ghost, dx: press.x - box.left, dy: press.y - box.top };
      document.documentElement.classList.add("km-dragging");
      try { press.source.setPointerCapture(event.pointerId); } catch (error) { /* gone meanwhile */ }
    }
    event.preventDefault();
    drag.ghost.style.transform =
      "translate(" + (event.clientX - drag.dx) + "px, " + (event.clientY - drag.dy) + "px)";
    drag.pile = pileAt(event.clientX, event.clientY);
    mark(drag.pile);
  });

  document.addEventListener("pointerup", function (event) {
    if (!press || event.pointerId !== press.id) return;
    if (!drag) { press = null; return; } // a tap: the click chooses the card as always
    // The pile under the pointer at its last move (a lifted finger may report no position).
    var button = targetIn(drag.pile);
    finish();
    if (button) button.click();
    swallowClick = true;
    window.setTimeout(function () { swallowClick = false; }, 0);
  });

  document.addEventListener("pointercancel", function (event) {
    if (press && event.pointerId === press.id) finish();
  });

  // A drag ends in a click on the card it started from: that must not choose it again.
  document.addEventListener("click", function (event) {
    if (!swallowClick) return;
    if (event.target.closest && event.target.closest("label.km-src")) {
      event.preventDefault();
      event.stopPropagation();
    }
    swallowClick = false;
  }, true);
})();
