// A page that refreshes part of itself (htmx polling, e.g. a player's page) keeps the <details>
// the reader opened open: their ids are noted before each swap and opened again after it.
(function () {
  var open = [];
  document.body.addEventListener("htmx:beforeSwap", function () {
    open = Array.prototype.map.call(document.querySelectorAll("details[id][open]"), function (d) { return d.id; });
  });
  document.body.addEventListener("htmx:afterSwap", function () {
    open.forEach(function (id) {
      var details = document.getElementById(id);
      if (details) details.open = true;
    });
  });
})();
