/* The member picker (scoring/member_picker.py): a group's chosen members are ticked boxes; the
   search box asks the page for "?q=<typed>" (JSON: {results: [{id, label}], more}) and lists the
   players found as buttons; picking one adds its ticked box to the chosen ones. Unticking a box
   takes a member off when the form is saved.

   Without this script the search box is a text field for names (";" between them) that the server
   adds on saving, and a small field lists every candidate in <noscript>. With it, the box's name
   is taken away (a search is not a list of names to add) and its hint says what it does now.

   Keys: typing searches (after a short pause); Enter in the box picks the only player found and
   never submits the form; ↓ goes to the players found, ↑ from the first back to the box. No
   framework, no htmx, no inline script (the site's Content-Security-Policy forbids them). */
(function () {
  "use strict";

  function setUp(picker) {
    var input = picker.querySelector("[data-picker-query]");
    var found = picker.querySelector("[data-picker-found]");
    var picked = picker.querySelector("[data-picked]");
    var status = picker.querySelector("[data-picker-status]");
    var hint = picker.querySelector("[data-picker-hint]");
    var url = picker.getAttribute("data-search-url");
    var name = picker.getAttribute("data-name");
    if (!input || !found || !picked || !url) return;
    input.removeAttribute("name");
    if (hint && hint.getAttribute("data-js-hint")) hint.textContent = hint.getAttribute("data-js-hint");
    var timer = null;
    var asked = 0;

    function say(text) { if (status) status.textContent = text || ""; }

    function chosenIds() {
      var ids = {};
      picked.querySelectorAll("input[type=checkbox]").forEach(function (box) { if (box.checked) ids[box.value] = true; });
      return ids;
    }

    function add(id, label) {
      var existing = picked.querySelector("input[type=checkbox][value='" + id + "']");
      if (existing) {
        existing.checked = true;
      } else {
        var item = document.createElement("li");
        var wrap = document.createElement("label");
        var box = document.createElement("input");
        box.type = "checkbox";
        box.name = name;
        box.value = id;
        box.checked = true;
        wrap.appendChild(box);
        wrap.appendChild(document.createTextNode(" " + label));
        item.appendChild(wrap);
        picked.appendChild(item);
      }
      picker.dispatchEvent(new Event("change", { bubbles: true }));
      say((picker.getAttribute("data-added") || "{name}").replace("{name}", label));
    }

    function show(data) {
      found.innerHTML = "";
      var ids = chosenIds();
      (data.results || []).forEach(function (result) {
        var item = document.createElement("li");
        var button = document.createElement("button");
        button.type = "button";
        button.className = "secondary";
        button.setAttribute("data-id", result.id);
        button.textContent = result.label;
        if (ids[String(result.id)]) {
          button.disabled = true;
          button.textContent = result.label + " (" + (picker.getAttribute("data-chosen-label") || "") + ")";
        }
        button.addEventListener("click", function () {
          add(String(result.id), result.label);
          button.disabled = true;
          button.textContent = result.label + " (" + (picker.getAttribute("data-chosen-label") || "") + ")";
          var next = found.querySelector("button:not([disabled])");
          (next || input).focus();
        });
        button.addEventListener("keydown", function (event) {
          var buttons = Array.prototype.slice.call(found.querySelectorAll("button:not([disabled])"));
          var at = buttons.indexOf(button);
          if (event.key === "ArrowDown" && at + 1 < buttons.length) { event.preventDefault(); buttons[at + 1].focus(); }
          if (event.key === "ArrowUp") { event.preventDefault(); (at > 0 ? buttons[at - 1] : input).focus(); }
        });
        item.appendChild(button);
        found.appendChild(item);
      });
      if (!data.results || !data.results.length) say(picker.getAttribute("data-none"));
      else if (data.more) say(picker.getAttribute("data-more"));
      else say("");
    }

    function ask() {
      var query = input.value.trim();
      var mine = ++asked;
      if (!query) { found.innerHTML = ""; say(""); return; }
      var address = url + (url.indexOf("?") < 0 ? "?" : "&") + "q=" + encodeURIComponent(query);
      fetch(address, { headers: { Accept: "application/json" }, credentials: "same-origin" })
        .then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); })
        .then(function (data) { if (mine === asked) show(data); })
        .catch(function () { if (mine === asked) say(picker.getAttribute("data-failed")); });
    }

    input.addEventListener("input", function () {
      clearTimeout(timer);
      timer = setTimeout(ask, 200);
    });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();  // a search, not the form's submit
        clearTimeout(timer);
        var buttons = found.querySelectorAll("button:not([disabled])");
        if (buttons.length === 1) buttons[0].click();
        else ask();
      }
      if (event.key === "ArrowDown") {
        var first = found.querySelector("button:not([disabled])");
        if (first) { event.preventDefault(); first.focus(); }
      }
    });
    if (input.value.trim()) ask();  // names typed and refused: show whom they may mean
  }

  function start() {
    document.querySelectorAll("[data-member-picker]").forEach(setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
