// The prize settings (prizes/settings.html): each category shows the fields its
// kind uses — places and shares for places and groups, club and members for a group only. A field
// that holds a value stays visible whatever the kind, so nothing typed is hidden; without this
// script every field shows.
(function () {
  var uses = {
    places: ["places", "shares"],
    group: ["places", "shares", "club", "members"],
    plus: [], last: [], best_hand: []
  };
  var optional = ["places", "shares", "club", "members"];
  function filled(p) {
    var input = p.querySelector("input, select, textarea");
    if (!input) return false;
    if (input.tagName === "SELECT") return input.selectedOptions.length > 0 && input.multiple;
    return input.name.slice(-7) !== "-places" && input.value.trim() !== "";
  }
  function update(fieldset) {
    var kind = fieldset.querySelector("select[name$='-kind']");
    if (!kind) return;
    var wanted = uses[kind.value] || optional;
    optional.forEach(function (name) {
      var p = fieldset.querySelector("[data-field='" + name + "']");
      if (p) p.hidden = wanted.indexOf(name) < 0 && !filled(p) && !p.querySelector(".errors");
    });
  }
  document.querySelectorAll("fieldset.prize-category").forEach(function (fieldset) {
    update(fieldset);
    var kind = fieldset.querySelector("select[name$='-kind']");
    if (kind) kind.addEventListener("change", function () { update(fieldset); });
  });
})();
