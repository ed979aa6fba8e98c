/* Kartenregeln – the long sections of a game page (details[data-fold], games/game_detail.html).
 *
 * Closed in the HTML, so a phone starts with what a reader came for and the page works without
 * JavaScript (a tap on the heading opens a section). This script
 * 1. opens them all on wide screens,
 * 2. opens the section a link points to (table of contents, „#statistik“, „#uebung-…“), on a
 *    click, on hashchange and when the page is loaded with such an address,
 * 3. opens them all for printing (the print style sheet shows closed ones as well).
 */
(function () {
  "use strict";

  var WIDE = "(min-width: 60rem)";

  function folds() {
    return Array.prototype.slice.call(document.querySelectorAll("details[data-fold]"));
  }

  function targetOf(hash) {
    if (!hash || hash.length < 2) return null;
    try {
      return document.getElementById(decodeURIComponent(hash.slice(1)));
    } catch (error) {
      return null;
    }
  }

  // Opens every folded section around (or directly inside) the target; true if one opened.
  function reveal(target) {
    if (!target) return false;
    var opened = false;
    var own = target.matches("section") && target.querySelector(":scope > details[data-fold]");
    var node = own || target;
    while (node) {
      var details = node.closest("details[data-fold]");
      if (!details) break;
      if (!details.open) {
        details.open = true;
        opened = true;
      }
      node = details.parentElement;
    }
    return opened;
  }

  // Sections are laid out as they come near the screen (content-visibility in site.css), so
  // the place of a just-opened section settles a frame later: scroll there again then.
  function settleOn(target) {
    target.scrollIntoView();
    window.requestAnimationFrame(function () {
      window.requestAnimationFrame(function () { target.scrollIntoView(); });
    });
  }

  function revealHash() {
    var target = targetOf(window.location.hash);
    if (reveal(target)) settleOn(target);
  }

  function start() {
    var hashTarget = targetOf(window.location.hash);
    if (window.matchMedia(WIDE).matches) {
      folds().forEach(function (details) { details.open = true; });
      // Sections above the target just opened: back to the section the address names.
      if (hashTarget) settleOn(hashTarget);
    } else {
      revealHash();
    }
  }

  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[href^='#']");
    if (link) reveal(targetOf(link.getAttribute("href")));
  });
  window.addEventListener("hashchange", revealHash);

  var closedForPrint = [];
  window.addEventListener("beforeprint", function () {
    closedForPrint = folds().filter(function (details) { return !details.open; });
    closedForPrint.forEach(function (details) { details.open = true; });
  });
  window.addEventListener("afterprint", function () {
    closedForPrint.forEach(function (details) { details.open = false; });
    closedForPrint = [];
  });

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
