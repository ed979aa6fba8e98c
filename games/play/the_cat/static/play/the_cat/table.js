/* The Cat table: keep the hand card the player chose while the table is redrawn.
 *
 * Other players and bots change the middle all the time, so the table is
 * swapped in several times a second. A chosen hand card (a radio button) would
 * be lost with each swap; this script checks it again if the card is still in
 * the hand. Everything else works without JavaScript.
 */
(function () {
  "use strict";

  if (window.theCatTableLoaded) return;
  window.theCatTableLoaded = true;

  var chosen = null; // id of the checked hand card's radio button

  document.addEventListener("change", function (event) {
    var input = event.target;
    if (input.matches && input.matches("input.cat-pick") && input.checked) chosen = input.id;
  });

  document.addEventListener("htmx:afterSettle", function () {
    if (!chosen) return;
    var input = document.getElementById(chosen);
    if (!input) {
      chosen = null; // the card left the hand (swapped, or the stack went back)
      return;
    }
    input.checked = true;
  });
})();
