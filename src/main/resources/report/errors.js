// Runs first: records script errors, failed loads and console errors, so that a test (or a reader
// wondering why a chart is empty) finds them in #tt-check once the page has rendered.
(function () {
  var errors = window.__ttErrors = [];
  window.addEventListener('error', function (e) {
    var t = e.target;
    if (t && t !== window && (t.src || t.href)) {
      errors.push('failed to load ' + (t.src || t.href));
    } else {
      errors.push('error: ' + (e.message || e.type) + (e.filename ? ' at ' + e.filename + ':' + e.lineno : ''));
    }
  }, true);
  // the page's Content-Security-Policy blocks every fetch; a blocked one is a failed request too
  document.addEventListener('securitypolicyviolation', function (e) {
    errors.push('blocked request to ' + e.blockedURI + ' (' + e.violatedDirective + ')');
  });
  window.addEventListener('unhandledrejection', function (e) { errors.push('unhandled rejection: ' + e.reason); });
  var original = console.error;
  console.error = function () {
    errors.push('console.error: ' + Array.prototype.map.call(arguments, String).join(' '));
    return original.apply(console, arguments);
  };
})();
