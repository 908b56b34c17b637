// Show only what the chosen outcome and contract use: the ruleset's catalogue lists, per contract,
// the record fields it takes ("fields") and the bonuses it allows ("bonuses").
(function () {
  const form = document.getElementById("hand-form");
  if (!form) return;
  const catalogue = JSON.parse(document.getElementById("catalogue").textContent);
  const contracts = Object.fromEntries(catalogue.contracts.map((c) => [c.key, c]));
  const outcome = () => (form.querySelector("[name=outcome]") || {}).value || "played";
  let initial = true;
  const filled = (el) =>
    [...el.querySelectorAll("select")].some((s) => s.value) ||
    [...el.querySelectorAll("input[type=checkbox]")].some((c) => c.checked);

  // Hidden choices must not travel with the hand: clear selects and check boxes when hiding
  // (typed numbers stay). A page that comes back with an error keeps showing what was typed, so
  // the scorer sees what the message is about.
  function show(el, visible, clear) {
    if (!visible && clear && initial && filled(el)) visible = true;
    el.hidden = !visible;
    if (visible || !clear) return;
    el.querySelectorAll("select").forEach((s) => (s.value = ""));
    el.querySelectorAll("input[type=checkbox]").forEach((c) => (c.checked = false));
  }

  function update() {
    const o = outcome();
    form.querySelectorAll("[data-show]").forEach((el) => show(el, el.dataset.show === o));
    const c = contracts[form.querySelector("[name=contract]").value];
    const fields = new Set(c ? c.fields : ["declarer", "won"]);
    form.querySelectorAll("[data-field]").forEach((el) => show(el, fields.has(el.dataset.field), true));
    const allowed = new Set(c ? c.bonuses : []);
    form.querySelectorAll("[data-bonus]").forEach((el) => show(el, allowed.has(el.dataset.bonus), true));
  }

  update();
  initial = false;
  form.addEventListener("change", update);
})();
