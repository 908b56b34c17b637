// A round's clock ([data-clock], tournaments/_clock.html): while it runs, count down to its end
// time (data-ends-at, milliseconds) every second; at zero say "time is up" (data-over).
(function () {
  function show(seconds) {
    seconds = Math.ceil(seconds);
    var h = Math.floor(seconds / 3600), m = Math.floor((seconds % 3600) / 60), s = seconds % 60;
    var mm = h ? String(m).padStart(2, "0") : String(m);
    return (h ? h + ":" : "") + mm + ":" + String(s).padStart(2, "0");
  }
  function tick() {
    document.querySelectorAll("[data-clock]").forEach(function (clock) {
      var ends = Number(clock.getAttribute("data-ends-at"));
      var time = clock.querySelector("[data-clock-time]");
      if (!ends || !time) return;
      var left = (ends - Date.now()) / 1000;
      if (left <= 0) {
        time.textContent = clock.getAttribute("data-over");
        clock.classList.remove("clock-running");
        clock.classList.add("clock-over");
        var leftWord = clock.querySelector("[data-clock-left]");  // "Time is up", not "Time is up left"
        if (leftWord) leftWord.hidden = true;
      } else {
        time.textContent = show(left);
      }
    });
  }
  tick();
  setInterval(tick, 1000);
  document.addEventListener("htmx:afterSwap", tick);  // a clock swapped in (the big screen) is right at once
})();
