// Tournament night: the round clock counts down on every screen that shows it. The server
// says the seconds left when it draws the part; the page counts from when it drew it, so a
// screen whose own clock is wrong still shows the right time.
(function () {
  "use strict";
  function show(el) {
    if (el._t0 === undefined) el._t0 = Date.now();
    var left = Math.max(0, Number(el.dataset.clockLeft) - Math.floor((Date.now() - el._t0) / 1000));
    var text = left > 0 ? Math.floor(left / 60) + ":" + String(left % 60).padStart(2, "0") : "Time!";
    if (el.textContent !== text) el.textContent = text;
    el.classList.toggle("time-up", left === 0);
  }
  setInterval(function () {
    document.querySelectorAll("[data-clock-left]").forEach(show);
  }, 500);
})();
