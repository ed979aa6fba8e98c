/* „Üben“: after an answer swapped an exercise in (htmx), move focus to its feedback so
 * keyboard and screen-reader users hear the verdict where they are. Without JavaScript the
 * form posts and the page jumps to the exercise's anchor instead. */
(function () {
  "use strict";
  document.addEventListener("htmx:afterSwap", function (event) {
    var target = event.detail && event.detail.target;
    if (!target || !target.id || target.id.indexOf("uebung-") !== 0) return;
    var exercise = document.getElementById(target.id);
    var feedback = exercise && exercise.querySelector(".exercise__feedback");
    if (feedback && feedback.textContent.trim()) feedback.focus({ preventScroll: false });
  });
})();
