// The arena page's chat: the ws extension sends the form as JSON; once sent, the
// box is emptied for the next line (a refusal comes back under it).
document.addEventListener("htmx:wsAfterSend", (event) => {
  const form = event.target.closest ? event.target.closest("#arena-chat-form") : null;
  if (form) {
    form.reset();
  }
});
