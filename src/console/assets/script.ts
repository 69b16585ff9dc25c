/**
 * The console's one script, and all it does: a "Copy" button beside a value shown once copies it. Pages work
 * without it; the buttons stay hidden until it runs. No inline script anywhere: the CSP allows none.
 */
export const CONSOLE_JS = `'use strict';
document.querySelectorAll('button[data-copy]').forEach(function (button) {
  button.hidden = false;
  button.addEventListener('click', function () {
    var field = document.getElementById(button.getAttribute('data-copy'));
    var status = document.getElementById(button.getAttribute('data-copy') + '-status');
    if (!field) return;
    field.select();
    var done = function () { if (status) status.textContent = 'Copied'; };
    if (navigator.clipboard) navigator.clipboard.writeText(field.value).then(done, function () {});
    else if (document.execCommand('copy')) done();
  });
});
`;
