// The Kurzregel's „Drucken“ button: shown only where scripts run (without them, the
// browser's own print command works the same).
document.querySelectorAll("[data-print]").forEach((button) => {
  button.hidden = false;
  button.addEventListener("click", () => window.print());
});
