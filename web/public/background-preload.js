// Starts the download of the sign-in page's first background while the app's JavaScript is still on
// its way; the app asks for the same URL when it renders, and the browser hands it this download.
// It repeats three choices of the app, checked against the app's own code by
// web/scripts/background-preload.test.ts: the sign-in page is `/` with a ReturnUrl (SPEC §2), its
// first image is unknownUser1 (SIGN_IN_ROTATION), dark before 18:00 local time and light from then
// (LIGHT_THEME_FROM_HOUR). The service picks the AVIF, WebP or phone form for this path.
// On every page it also sets <html data-theme> at once, so index.html's first-paint colours are the
// theme's before the app runs (the app sets the same value).
(() => {
  const theme = new Date().getHours() < 18 ? 'dark' : 'light';
  document.documentElement.dataset.theme = theme;
  const query = new URLSearchParams(window.location.search);
  if (window.location.pathname !== '/' || !(query.has('ReturnUrl') || query.has('returnUrl'))) return;
  const link = document.createElement('link');
  link.rel = 'preload';
  link.as = 'image';
  link.setAttribute('fetchpriority', 'high');
  link.href = `/images/background/${theme}/1920/unknownUser1.jpg`;
  document.head.append(link);
})();
