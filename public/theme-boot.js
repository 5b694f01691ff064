/* global localStorage, document */
// Runs before the page is drawn (a classic script in <head>): the theme the user chose is in
// place from the first frame. The settings stay the source of truth; components/theme.ts keeps
// this copy in step with them.
(function () {
  try {
    var theme = localStorage.getItem('gateway-chat-theme');
    if (theme === 'light' || theme === 'dark') {
      document.documentElement.style.colorScheme = theme;
      document.documentElement.dataset.theme = theme;
    }
  } catch {
    // No storage: the system's theme until the settings load.
  }
})();
