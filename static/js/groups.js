/* Spielegruppen: „Kopieren“ buttons beside secret links (the field stays selectable without JS)
 * and a confirmation before forms marked [data-confirm] remove something (CSP allows no inline handlers). */
(function () {
  "use strict";
  document.querySelectorAll("[data-copy]").forEach(function (button) {
    var input = document.getElementById(button.getAttribute("data-copy"));
    if (!input || !navigator.clipboard) return;
    button.hidden = false;
    var label = button.textContent;
    button.addEventListener("click", function () {
      navigator.clipboard.writeText(input.value).then(function () {
        button.textContent = "Kopiert ✓";
        setTimeout(function () { button.textContent = label; }, 2000);
      }, function () {
        input.select();
      });
    });
  });
  document.querySelectorAll("form[data-confirm]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      if (!window.confirm(form.getAttribute("data-confirm"))) event.preventDefault();
    });
  });
  document.querySelectorAll(".link-box__input").forEach(function (input) {
    input.addEventListener("focus", function () { input.select(); });
  });
})();
