// The hand entry form: show only what the chosen outcome and contract use (from the ruleset's
// catalogue), keep the quick-entry line and the fields in step, Enter saves, deleting asks why.
// Runs again on every piece of page htmx swaps in.
//
// The line is read on the server only (the ruleset's notation, strict): this script never guesses
// what a token means. The preview under the line answers every change with the hand as the server
// read it. Whichever the scorer used last is what is saved ("source"): after typing in the line,
// the fields are set to the hand it gave; after changing a field, the line shows the fields' hand
// in notation. So the line, the fields and the preview never disagree about what Enter saves.
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

    // A save that fails (an error from the server, no network) leaves the form as typed (htmx swaps
    // nothing then) and says so, instead of nothing happening on Enter.
    const failed = form.querySelector("[data-save-failed]");
    const fail = (text, status) => {
      failed.textContent = text.replace("%(status)s", status);
      failed.hidden = false;
    };
    form.addEventListener("htmx:beforeRequest", (event) => {
      if (event.detail.elt === form) failed.hidden = true;
    });
    form.addEventListener("htmx:responseError", (event) => {
      if (event.detail.elt !== form) return;
      const status = event.detail.xhr.status;
      fail(status === 403 ? failed.dataset.denied : failed.dataset.server, status);
    });
    form.addEventListener("htmx:sendError", (event) => {
      if (event.detail.elt === form) fail(failed.dataset.network, "");
    });
    const contracts = Object.fromEntries(catalogue.contracts.map((c) => [c.key, c]));
    const field = (name) => form.querySelector(`[name=${name}]`);
    let initial = true;
    // A select counts as filled once something other than its first choice ("—", or a kontra
    // level of 0) is chosen.
    const filled = (el) =>
      [...el.querySelectorAll("select")].some((s) => s.selectedIndex > 0) ||
      [...el.querySelectorAll("input[type=checkbox]")].some((c) => c.checked);

    // Hidden choices must not travel with the hand: clear selects and check boxes when hiding
    // (typed numbers stay). A form that comes back with an error keeps showing what was typed.
    function show(el, visible, clear) {
      if (!visible && clear && initial && filled(el)) visible = true;
      el.hidden = !visible;
      if (visible || !clear) return;
      el.querySelectorAll("select").forEach((s) => (s.selectedIndex = 0));
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

    const quick = field("quick");
    const source = field("source");
    const handFields = form.querySelector("[data-hand-fields]");
    const preview = form.querySelector("#preview");
    if (!source.value) source.value = quick.value.trim() ? "line" : "fields";
    quick.addEventListener("input", () => (source.value = "line"));
    ["input", "change"].forEach((type) =>
      handFields.addEventListener(type, () => (source.value = "fields"))
    );

    // Set the fields to the hand the server read from the line (nothing else changes them).
    function setFields(values) {
      handFields.querySelectorAll("select").forEach((s) => (s.selectedIndex = 0));
      handFields.querySelectorAll("input[type=text], input[type=number], input:not([type])").forEach((i) => (i.value = ""));
      handFields.querySelectorAll("input[type=checkbox], input[type=radio]").forEach((i) => (i.checked = false));
      for (const [name, value] of Object.entries(values)) {
        const el = form.elements[name];
        if (!el) continue;
        if (el.type === "checkbox") el.checked = Boolean(value);
        else el.value = value;
      }
      update();
    }

    preview.addEventListener("htmx:afterSwap", () => {
      const state = preview.querySelector("#preview-state");
      if (!state) return;
      const read = JSON.parse(state.textContent);
      if (read.source !== source.value) return; // the scorer switched meanwhile
      if (read.source === "line") {
        if (read.typed === quick.value) setFields(read.fields); // empty when nothing could be read
      } else if (document.activeElement !== quick) {
        quick.value = read.line;
      }
    });

    form.addEventListener("change", update);
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
