// Drag-and-drop ordering for admin inlines marked "sortable-inline".
// Rows get a drag handle; on drop every row's `position` input is renumbered.
"use strict";
(function () {
  function rows(group) {
    return Array.from(group.querySelectorAll(".inline-related:not(.empty-form), tr.form-row:not(.empty-form)"))
      .filter((row) => row.querySelector("input[name$='-position']"));
  }

  function renumber(group) {
    rows(group).forEach((row, index) => {
      row.querySelector("input[name$='-position']").value = index;
    });
  }

  function makeSortable(group) {
    let dragged = null;
    rows(group).forEach((row) => {
      if (row.dataset.sortable) return;
      row.dataset.sortable = "1";
      row.draggable = true;
      row.classList.add("sortable-row");
      row.addEventListener("dragstart", (event) => {
        dragged = row;
        event.dataTransfer.effectAllowed = "move";
      });
      row.addEventListener("dragover", (event) => {
        if (!dragged || dragged === row || dragged.parentNode !== row.parentNode) return;
        event.preventDefault();
        const box = row.getBoundingClientRect();
        const after = event.clientY > box.top + box.height / 2;
        row.parentNode.insertBefore(dragged, after ? row.nextSibling : row);
      });
      row.addEventListener("dragend", () => {
        dragged = null;
        renumber(group);
      });
    });
  }

  function init() {
    document.querySelectorAll(".sortable-inline").forEach((group) => {
      makeSortable(group);
      // Rows added with "Weitere … hinzufügen" go to the end.
      group.addEventListener("click", () => window.setTimeout(() => {
        makeSortable(group);
        rows(group).forEach((row, index) => {
          const input = row.querySelector("input[name$='-position']");
          if (!input.value) input.value = index;
        });
      }, 0));
    });
  }

  document.addEventListener("DOMContentLoaded", init);
})();
