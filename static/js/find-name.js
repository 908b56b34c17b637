/* "Find my name": as a player types, the rows with his name are highlighted and the others dimmed
   (data-find-name="dim", the standings: the places around him stay readable) or hidden
   (data-find-name="hide", the seating list: only his table and his line remain).

   Markup: a box <div data-find-name="dim|hide" hidden> with an <input> and an element with
   role="status" whose data-none is the message when nothing matches; rows with data-find-text (the
   name to match); optional groups with data-find-group (a table's card), hidden in "hide" mode
   when none of their rows matches, the rows inside a group keep their table mates visible. The box
   stays hidden without JavaScript. Matching ignores case and accents ("simon" finds "Šimon"); every
   word typed must occur in the name. No framework, no htmx. */
(function () {
  "use strict";

  var SPECIAL = { "ß": "ss", "đ": "d", "ł": "l", "ø": "o", "æ": "ae", "œ": "oe", "ı": "i" };

  function fold(text) {
    return (text || "")
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[ßđłøæœı]/g, function (c) { return SPECIAL[c]; });
  }

  function setUp(box) {
    var input = box.querySelector("input");
    var status = box.querySelector("[role=status]");
    if (!input) return;
    var hide = box.getAttribute("data-find-name") === "hide";
    var rows = Array.prototype.map.call(document.querySelectorAll("[data-find-text]"), function (row) {
      return { el: row, text: fold(row.getAttribute("data-find-text")), group: row.closest("[data-find-group]") };
    });
    var groups = Array.prototype.slice.call(document.querySelectorAll("[data-find-group]"));

    function show(el, visible) {
      if (visible) el.removeAttribute("hidden");
      else el.setAttribute("hidden", "");
    }

    function update(scroll) {
      var words = fold(input.value).split(/\s+/).filter(Boolean);
      var active = words.length > 0;
      var first = null;
      var found = 0;
      var groupsFound = new Set();
      rows.forEach(function (row) {
        var match = active && words.every(function (w) { return row.text.indexOf(w) !== -1; });
        row.el.classList.toggle("find-match", match);
        row.el.classList.toggle("find-dim", active && !match && !hide);
        if (hide && !row.group) show(row.el, !active || match);
        if (match) {
          found += 1;
          if (row.group) groupsFound.add(row.group);
          if (!first) first = row.el;
        }
      });
      groups.forEach(function (group) { show(group, !hide || !active || groupsFound.has(group)); });
      box.classList.toggle("find-active", active);
      if (status) status.textContent = active && !found ? status.getAttribute("data-none") || "" : "";
      if (scroll && first) {
        var r = first.getBoundingClientRect();
        if (r.top < 0 || r.bottom > window.innerHeight) first.scrollIntoView({ block: "center" });
      }
    }

    input.addEventListener("input", function () { update(true); });
    input.addEventListener("keydown", function (event) {
      if (event.key === "Enter") {
        event.preventDefault();
        input.blur(); // closes a phone's keyboard: the rows found are in view
        update(true);
      }
    });
    box.removeAttribute("hidden");
    if (input.value) update(false); // a value the browser restored on "back"
  }

  function start() {
    Array.prototype.forEach.call(document.querySelectorAll("[data-find-name]"), setUp);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
})();
