// The hand entry form: show only what the chosen outcome and contract use (from the ruleset's
// catalogue), a quick-entry line for the keyboard, Enter saves, deleting asks why. Runs again on
// every piece of page htmx swaps in.
(function () {
  function init(root) {
    root.querySelectorAll("form[data-ask-reason]").forEach((f) =>
      f.addEventListener("submit", (event) => {
        const reason = window.prompt(f.dataset.askReason, "");
        if (reason === null) event.preventDefault();
        else f.querySelector("[name=reason]").value = reason;
      })
    );
    const form = root.querySelector("#hand-form");
    const data = root.querySelector("#catalogue");
    if (!form || !data) return;
    const catalogue = JSON.parse(data.textContent);
    const contracts = Object.fromEntries(catalogue.contracts.map((c) => [c.key, c]));
    const field = (name) => form.querySelector(`[name=${name}]`);
    let initial = true;
    const filled = (el) =>
      [...el.querySelectorAll("select")].some((s) => s.value) ||
      [...el.querySelectorAll("input[type=checkbox]")].some((c) => c.checked);

    // Hidden choices must not travel with the hand: clear selects and check boxes when hiding
    // (typed numbers stay). A form that comes back with an error keeps showing what was typed.
    function show(el, visible, clear) {
      if (!visible && clear && initial && filled(el)) visible = true;
      el.hidden = !visible;
      if (visible || !clear) return;
      el.querySelectorAll("select").forEach((s) => (s.value = ""));
      el.querySelectorAll("input[type=checkbox]").forEach((c) => (c.checked = false));
    }

    function update() {
      const o = (field("outcome") || {}).value || "played";
      form.querySelectorAll("[data-show]").forEach((el) => show(el, el.dataset.show === o));
      const c = contracts[field("contract").value];
      const fields = new Set(c ? c.fields : ["declarer", "won"]);
      form.querySelectorAll("[data-field]").forEach((el) => show(el, fields.has(el.dataset.field), true));
      const allowed = new Set(c ? c.bonuses : []);
      form.querySelectorAll("[data-bonus]").forEach((el) => show(el, allowed.has(el.dataset.bonus), true));
    }

    // Quick entry: "d 2 + pag!" = Dreier, seat 2 declares, won, Pagat announced and made.
    // Bled: "2 1 45 k m3" = Dvojko by seat 1, 45 card points, kontra, seat 3 lost the Mond;
    // "k 20 30 21 k2" = Klop with those card points, seat 2 said kontra.
    const KONTRA = { k: 1, re: 2, sub: 3, mort: 4 };
    const quick = form.querySelector("#quick");
    const names = quick ? quick.dataset.names.split("|") : [];
    const initials = names.map((n) =>
      n.split(/[\s-]+/).map((w) => w[0]).join("").toLowerCase()
    );
    function seatOf(token) {
      if (/^[1-9]$/.test(token)) return Number(token) - 1 < names.length ? Number(token) - 1 : null;
      const t = token.toLowerCase();
      let hits = initials.flatMap((ini, i) => (ini === t ? [i] : []));
      if (hits.length !== 1) hits = names.flatMap((n, i) => (n.toLowerCase().startsWith(t) ? [i] : []));
      return hits.length === 1 ? hits[0] : null;
    }
    function contractOf(token) {
      const t = token.toLowerCase();
      const exact = catalogue.contracts.filter((c) => c.shortcut === t);
      if (exact.length === 1) return exact[0];
      const prefix = catalogue.contracts.filter((c) => c.name.toLowerCase().startsWith(t));
      return prefix.length === 1 ? prefix[0] : null;
    }
    function set(name, value) {
      const el = field(name);
      if (el) el.value = value;
    }
    function applyQuick() {
      const tokens = quick.value.trim().split(/\s+/).filter(Boolean);
      if (!tokens.length) return;
      const contract = contractOf(tokens[0]);
      if (!contract) return;
      set("outcome", "played");
      set("contract", contract.key);
      update();
      form.querySelectorAll("[name^=bonus_]").forEach((s) => (s.value = ""));
      const seats = [];
      const points = [];
      for (const token of tokens.slice(1)) {
        const bonus = token.match(/^(\/?)([a-z0-9]+?)(!?)(-?)$/i);
        const code = bonus && catalogue.bonuses.find((b) => b.code === bonus[2].toLowerCase());
        if (token === "+" || token === "-") {
          const radio = form.querySelector(`[name=won][value="${token === "+" ? 1 : 0}"]`);
          if (radio) radio.checked = true;
        } else if (token.toLowerCase() === "gs") {
          if (field("against_solo")) field("against_solo").checked = true;
        } else if (token.toLowerCase() === "x") {
          if (field("conceded")) field("conceded").checked = true;
        } else if (field("kontra") && KONTRA[token.toLowerCase()] && contract.fields.includes("kontra")) {
          set("kontra", String(KONTRA[token.toLowerCase()]));  // Bled: k, re, sub, mort
        } else if (/^k[1-9]$/i.test(token) && contract.fields.includes("kontra_by")) {
          set("kontra_by", String(Number(token.slice(1)) - 1));  // Bled Klop: who said kontra
        } else if (/^m[1-9]$/i.test(token) && contract.fields.includes("mond_lost_by")) {
          set("mond_lost_by", String(Number(token.slice(1)) - 1));  // Bled: whose Mond was caught
        } else if (/^r[1-9]$/i.test(token)) {
          set("revoke", String(Number(token.slice(1)) - 1));
        } else if (code && contract.bonuses.includes(code.key)) {
          const team = bonus[1] ? "o" : "d";
          set(`bonus_${code.key}`, `${team}:${bonus[3] ? "a" : "s"}:${bonus[4] ? "0" : "1"}`);
        } else if (
          /^\d+(\/[0-2])?$/.test(token) &&
          (contract.fields.includes("card_points") || (contract.fields.includes("declarer_points") && seats.length >= 1))
        ) {
          points.push(token);
        } else if (seatOf(token) !== null) {
          seats.push(seatOf(token));
        }
      }
      if (seats[0] !== undefined) set("declarer", String(seats[0]));
      if (seats[1] !== undefined) set("partner", String(seats[1]));
      if (contract.fields.includes("declarer_points") && points.length) set("declarer_points", points[0]);
      if (contract.fields.includes("card_points")) {
        // In seat order, skipping the dealer where he sits out.
        const out = names.length === catalogue.dealer_sits_out_at ? Number(field("dealer").value) : -1;
        const active = [...form.querySelectorAll("[name^=points_]")].filter((i) => Number(i.name.slice(7)) !== out);
        points.forEach((p, i) => active[i] && (active[i].value = p));
      }
      update();
      form.dispatchEvent(new Event("change", { bubbles: true }));
    }

    form.addEventListener("change", update);
    if (quick) quick.addEventListener("input", applyQuick);
    // Enter saves from any control (a select or check box does not submit by itself).
    form.addEventListener("keydown", (event) => {
      if (event.key === "Enter" && !event.shiftKey && event.target.tagName !== "TEXTAREA" && event.target.type !== "submit") {
        event.preventDefault();
        form.requestSubmit();
      }
    });
    update();
    initial = false;
  }

  if (window.htmx) window.htmx.onLoad((el) => init(el.querySelector ? el : document));
  else init(document);
})();
