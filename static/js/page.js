// Small behaviours every page may use, without inline handlers (the Content-Security-Policy
// allows scripts from this site only):
//   <form data-confirm="Question?">   asks before submitting
//   <button data-print>               prints the page
for (const form of document.querySelectorAll("form[data-confirm]")) {
  form.addEventListener("submit", (event) => {
    if (!window.confirm(form.dataset.confirm)) event.preventDefault();
  });
}
for (const button of document.querySelectorAll("[data-print]")) {
  button.addEventListener("click", () => window.print());
}
