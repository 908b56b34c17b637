// The big screen (live/screen.html, live/screen_prizes.html).
// Slides: each slide asks for the next one itself (hx-trigger "load delay"); when a request fails
// (the server restarting, the Wi-Fi gone) the screen keeps the slide it shows and asks again
// every 10 seconds instead of stopping.
// Prize-giving: every [data-prize] is hidden; space, → or a click reveals the next one in big
// type and moves the one before into the list below; ← takes the last step back.
(function () {
  if (window.htmx) window.htmx.config.timeout = 15000;  // a request hanging on the venue's Wi-Fi gives up
  document.body.addEventListener("htmx:responseError", retry);
  document.body.addEventListener("htmx:sendError", retry);
  document.body.addEventListener("htmx:timeout", retry);
  function retry(event) {
    var slide = document.getElementById("slide");
    if (!slide || !window.htmx) return;
    var url = slide.getAttribute("data-retry-url") || slide.getAttribute("hx-get");
    setTimeout(function () {
      window.htmx.ajax("GET", url, { target: "#slide", swap: "outerHTML" });
    }, 10000);
  }

  var prizes = Array.prototype.slice.call(document.querySelectorAll("[data-prize]"));
  if (!prizes.length) return;
  var shown = document.querySelector("[data-prize-shown]");
  var hint = document.querySelector("[data-prize-hint]");
  var at = -1;
  function show() {
    prizes.forEach(function (prize, i) { prize.hidden = i !== at; });
    shown.innerHTML = "";
    for (var i = at - 1; i >= 0; i--) {
      var item = document.createElement("li");
      item.textContent = prizes[i].querySelector(".prize-category").textContent + ": " + prizes[i].querySelector(".prize-names").textContent;
      shown.appendChild(item);
    }
    if (hint) hint.hidden = at >= 0;
  }
  function step(by) {
    at = Math.max(-1, Math.min(prizes.length - 1, at + by));
    show();
  }
  document.addEventListener("keydown", function (event) {
    if (event.key === " " || event.key === "ArrowRight" || event.key === "PageDown" || event.key === "Enter") { event.preventDefault(); step(1); }
    if (event.key === "ArrowLeft" || event.key === "PageUp" || event.key === "Backspace") { event.preventDefault(); step(-1); }
  });
  document.addEventListener("click", function () { step(1); });
})();
