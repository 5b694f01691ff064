export default defineBackground(() => {
  // Runs, the message protocol and context menus are wired here by later work.
});
