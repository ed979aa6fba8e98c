/* Katz und Maus: drag and drop on top of the two-step move (choose a card, then a target).
 *
 * Dragging a card chooses it (its radio), so the targets for it appear; dropping it on a
 * pile presses that pile's button for this card – the same form post as a click. Without
 * this script every move works by clicks, taps or the keyboard.
 */
(function () {
  "use strict";

  if (window.katzUndMausTable) return;
  window.katzUndMausTable = true;

  var dragged = null; // the radio value of the card being dragged („hand-2“, „stock“ …)

  function targetFor(el) {
    var pile = el && el.closest && el.closest(".km-build, .km-dpile");
    return dragged && pile ? pile.querySelector(".km-go--" + dragged) : null;
  }

  document.addEventListener("dragstart", function (event) {
    var source = event.target.closest && event.target.closest("label.km-src");
    if (!source) return;
    var radio = source.querySelector(".km-src__input");
    radio.checked = true;
    dragged = radio.value;
    event.dataTransfer.effectAllowed = "move";
    event.dataTransfer.setData("text/plain", dragged);
  });

  document.addEventListener("dragover", function (event) {
    if (targetFor(event.target)) event.preventDefault();
  });

  document.addEventListener("dragenter", function (event) {
    var pile = event.target.closest && event.target.closest(".km-build, .km-dpile");
    if (pile && targetFor(pile)) pile.classList.add("is-drop");
  });

  document.addEventListener("dragleave", function (event) {
    var pile = event.target.closest && event.target.closest(".km-build, .km-dpile");
    if (pile && !pile.contains(event.relatedTarget)) pile.classList.remove("is-drop");
  });

  document.addEventListener("drop", function (event) {
    var button = targetFor(event.target);
    document.querySelectorAll(".is-drop").forEach(function (el) { el.classList.remove("is-drop"); });
    if (!button) return;
    event.preventDefault();
    dragged = null;
    button.click();
  });

  document.addEventListener("dragend", function () {
    dragged = null;
    document.querySelectorAll(".is-drop").forEach(function (el) { el.classList.remove("is-drop"); });
  });
})();
