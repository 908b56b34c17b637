// Show only what the chosen outcome and contract allow; the catalogue comes from the ruleset.
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
  // (typed card points stay, they are only used by Trischaken). A page that comes back with an
  // error keeps showing what was typed, so the scorer sees what the message is about.
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
    const family = c ? c.family : null;
    form.querySelectorAll("[data-show-family]").forEach((el) => show(el, family === el.dataset.showFamily, true));
    form.querySelectorAll("[data-hide-family]").forEach((el) => show(el, family !== el.dataset.hideFamily, true));
    const allowed = new Set(c ? c.bonuses : []);
    form.querySelectorAll("[data-bonus]").forEach((el) => {
      show(el, allowed.has(el.dataset.bonus), true);
    });
    show(form.querySelector("[data-bonuses]"), allowed.size > 0);
    show(form.querySelector("[data-can-concede]"), !!(c && c.can_concede), true);
  }

  update();
  initial = false;
  form.addEventListener("change", update);
})();
