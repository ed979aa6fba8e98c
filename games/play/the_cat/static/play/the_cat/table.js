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

  document.addEventListener("htmx:afterSettle", function () {
    if (chosen) {
      var input = document.getElementById(chosen);
      if (input) input.checked = true;
      else chosen = null; // the card left the hand (swapped, or the stack went back)
    }
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
