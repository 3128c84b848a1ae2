document.querySelectorAll("table.sortable").forEach(function (table) {
  var headers = table.querySelectorAll("thead th");
  headers.forEach(function (th, index) {
    var button = th.querySelector("button");
    if (!button) return;
    button.addEventListener("click", function () {
      var ascending = th.getAttribute("aria-sort") !== "ascending";
      headers.forEach(function (other) { other.removeAttribute("aria-sort"); });
      th.setAttribute("aria-sort", ascending ? "ascending" : "descending");
      var numeric = th.dataset.type === "number";
      var body = table.tBodies[0];
      var all = Array.prototype.slice.call(body.rows);
      var details = {};
      all.forEach(function (row) {
        if (row.classList.contains("detail")) details[row.dataset.follows] = row;
      });
      var rows = all.filter(function (row) { return !row.classList.contains("detail"); });
      function value(row) {
        var cell = row.cells[index], given = cell.dataset.value;
        return given === undefined ? cell.textContent : given;
      }
      rows.sort(function (a, b) {
        var x = value(a), y = value(b);
        if (x === "" || y === "") return (x === "") - (y === "");
        if (numeric) { x = Number(x); y = Number(y); }
        var order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      rows.forEach(function (row) {
        body.appendChild(row);
        var detail = details[row.dataset.key];
        if (detail) body.appendChild(detail);
      });
    });
  });
});
