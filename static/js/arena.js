// The arena page's chat.  The page's one socket sits on the base page's notice
// element, which does not hold the chat form, so the form cannot use ws-send: it
// sends through the socket htmx's ws extension hands over as it opens (a reconnect
// hands over the new one).  A sent line leaves the box empty; an empty one is not
// sent.  A refusal comes back under the box.
(() => {
  let socket = null;
  document.addEventListener("htmx:wsOpen", (event) => {
    if (event.target.closest && event.target.closest(".notice-socket")) {
      socket = event.detail.socketWrapper;
    }
  });
  document.addEventListener("submit", (event) => {
    const form = event.target;
    if (form.id !== "arena-chat-form") return;
    event.preventDefault();
    const text = form.elements.text.value;
    if (!text.trim() || socket === null) return;
    socket.send(JSON.stringify({ type: "chat", text }));
    form.reset();
  });
})();
