// A button with data-confirm="question" asks before its form is sent: the Content-Security-Policy
// allows no inline onclick handlers, and a translation's apostrophe cannot break an attribute.
document.addEventListener("click", (event) => {
  const button = event.target.closest("[data-confirm]");
  if (button && !window.confirm(button.dataset.confirm)) {
    event.preventDefault();
  }
});
