/* The replay page: ←/→ step, „Abspielen“ steps on by itself, „Kopieren“ copies the link.
 *
 * Every step is a link the server draws (htmx swaps the stage, the address follows),
 * so this script only presses those links: by key, or on a timer while playing.
 */
(function () {
  "use strict";

  var PLAY_EVERY_MS = 1200;
  var playing = null; // interval id while autoplay runs

  function stage() { return document.querySelector("[data-replay-stage]"); }

  function press(id) {
    var link = document.getElementById(id);
    if (!link || link.getAttribute("aria-disabled") === "true") return false;
    link.click();
    return true;
  }

  function setPlaying(on) {
    if (playing) { clearInterval(playing); playing = null; }
    if (on) {
      playing = setInterval(function () {
        if (!press("replay-next")) setPlaying(false);
      }, PLAY_EVERY_MS);
    }
    var button = document.querySelector("[data-replay-play]");
    if (button) {
      button.setAttribute("aria-pressed", on ? "true" : "false");
      button.textContent = on ? "❚❚ Anhalten" : "▶ Abspielen";
    }
  }

  function prepare() {
    var root = stage();
    if (!root) return;
    var button = root.querySelector("[data-replay-play]");
    if (button) {
      button.hidden = false;
      var atEnd = !root.dataset.next;
      if (atEnd && playing) setPlaying(false);
      button.setAttribute("aria-pressed", playing ? "true" : "false");
      button.textContent = playing ? "❚❚ Anhalten" : "▶ Abspielen";
      button.disabled = atEnd;
    }
    root.querySelectorAll("[data-copy][hidden]").forEach(function (b) { b.hidden = false; });
  }

  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey || event.shiftKey) return;
    var target = event.target;
    if (target && /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName)) return;
    if (event.key === "ArrowRight" && press("replay-next")) event.preventDefault();
    if (event.key === "ArrowLeft" && press("replay-previous")) event.preventDefault();
  });

  document.addEventListener("click", function (event) {
    var play = event.target.closest("[data-replay-play]");
    if (play) { setPlaying(!playing); return; }
    var copier = event.target.closest("[data-copy]");
    if (copier && copier.closest("[data-replay-stage]")) {
      var input = document.getElementById(copier.dataset.copy);
      if (!input) return;
      input.select();
      var done = function () { copier.textContent = "Kopiert"; };
      if (navigator.clipboard) navigator.clipboard.writeText(input.value).then(done, function () {});
      else { try { document.execCommand("copy"); done(); } catch (e) { /* the field stays selected */ } }
    }
  });

  // htmx.onLoad runs once htmx has processed the page (and again after every swap): the
  // button shows only when the step links answer by htmx, so early keys never race its setup.
  htmx.onLoad(prepare);
})();
