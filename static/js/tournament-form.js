// The tournament form follows the chosen ruleset: its default rounds and hands per round show as
// placeholders (empty fields take them) and only its options are offered.
(function () {
  const select = document.querySelector("select[name=ruleset_edition]");
  if (!select) return;
  const defaults = JSON.parse(select.dataset.defaults || "{}");
  function follow() {
    const chosen = defaults[select.value] || {};

    const rounds = document.querySelector("input[name=rounds]");
    const hands = document.querySelector("input[name=hands_per_round]");
    if (rounds) rounds.placeholder = chosen.rounds ?? "";
    if (hands) hands.placeholder = chosen.hands ?? "";
    document.querySelectorAll("input[name=ruleset_options]").forEach((box) => {
      const item = box.closest("div") || box.parentElement;
      item.hidden = box.value.split(":")[0] !== select.value;
    });
  }
  select.addEventListener("change", follow);
  follow();
})();
