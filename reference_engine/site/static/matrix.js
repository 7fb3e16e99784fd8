/* The rules matrix: show only the rows that match the filter box, the chosen
 * group and (if ticked) the rules on which the variants differ. Without
 * JavaScript every row stays shown. */
(function () {
  "use strict";
  var text = document.getElementById("rule-filter");
  var group = document.getElementById("rule-group");
  var differ = document.getElementById("only-differ");
  var count = document.getElementById("rule-count");
  var rows = Array.prototype.slice.call(document.querySelectorAll("#matrix tbody tr"));
  if (!text || !group || !differ) { return; }

  function apply() {
    var words = text.value.trim().toLowerCase().replace(/\s+/g, "_");
    var shown = 0;
    rows.forEach(function (row) {
      var visible = row.dataset.rule.indexOf(words) >= 0 &&
        (!group.value || row.dataset.group === group.value) &&
        (!differ.checked || row.dataset.differs === "yes");
      row.hidden = !visible;
      if (visible) { shown += 1; }
    });
    count.textContent = shown + (shown === 1 ? " rule shown" : " rules shown");
  }

  text.addEventListener("input", apply);
  group.addEventListener("change", apply);
  differ.addEventListener("change", apply);
  document.getElementById("matrix-filters").addEventListener("submit", function (e) { e.preventDefault(); });
  apply();
}());
