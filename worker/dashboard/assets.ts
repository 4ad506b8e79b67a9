// The dashboard's stylesheet and script, served by the Worker itself (no CDN, no external fonts),
// so the dashboard works on a network without internet. Plain ES2020, no build step.

export const DASHBOARD_CSS = `
:root{--fg:#1b1b1b;--muted:#5f6368;--bg:#f6f7f9;--card:#fff;--line:#dadce0;--accent:#1d4e89;--accent-fg:#fff;--ok:#1e6b3a;--bad:#a11d1d;--warn:#7b4b00;--focus:#f2a900}
*{box-sizing:border-box}
html{font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--fg);background:var(--bg)}
body{margin:0}
[hidden]{display:none!important}
a{color:var(--accent)}
:focus-visible{outline:3px solid var(--focus);outline-offset:2px}
.skip{position:absolute;left:-999px}.skip:focus{left:1rem;top:1rem;background:#fff;padding:.5rem;z-index:10}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0)}
.top{display:flex;flex-wrap:wrap;align-items:center;gap:1rem;padding:.75rem 1.5rem;background:#fff;border-bottom:1px solid var(--line)}
.brand{font-weight:700;font-size:1.2rem;text-decoration:none;color:var(--fg);margin:0}
.top nav ul{display:flex;flex-wrap:wrap;gap:.25rem;list-style:none;margin:0;padding:0}
.top nav a{display:block;padding:.35rem .7rem;border-radius:6px;text-decoration:none;color:var(--fg)}
.top nav a:hover{background:var(--bg)}
.top nav a[aria-current=page]{background:var(--accent);color:var(--accent-fg)}
.signout{margin-left:auto;display:flex;gap:.75rem;align-items:center}
.who{color:var(--muted);font-size:.9rem}
main{max-width:1100px;margin:0 auto;padding:1.5rem}
main.auth{max-width:26rem;margin:4rem auto;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:2rem}
h1{margin:.2rem 0 1rem;font-size:1.6rem}h2{font-size:1.1rem;margin:0 0 .5rem}
.grid{display:grid;grid-template-columns:repeat(auto-fit,minmax(240px,1fr));gap:1rem;margin-bottom:1.5rem}
.card{background:var(--card);border:1px solid var(--line);border-radius:10px;padding:1rem 1.25rem;margin-bottom:1rem}
.big{font-size:2rem;font-weight:650;margin:.25rem 0}.big .muted{font-size:1rem;font-weight:400}
.muted{color:var(--muted)}
.facts{display:grid;grid-template-columns:auto auto;gap:.15rem 1rem;margin:.5rem 0 0}.facts dt{color:var(--muted)}.facts dd{margin:0;text-align:right;font-variant-numeric:tabular-nums}
meter{width:100%;height:1.1rem}progress{width:5rem;vertical-align:middle}
form.stack{display:flex;flex-direction:column;gap:.35rem}form.stack button{margin-top:.75rem}
form.narrow{max-width:28rem}
form.inline{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
label{font-weight:600}label.check{font-weight:400;display:flex;gap:.5rem;align-items:center;margin-top:.5rem}
input[type=email],input[type=password],input[type=text]{font:inherit;padding:.5rem .6rem;border:1px solid #9aa0a6;border-radius:6px;min-width:16rem}
input[type=file]{font:inherit}
button{font:inherit;padding:.5rem 1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:var(--accent-fg);cursor:pointer}
button:disabled{opacity:.6;cursor:progress}
button.link{background:none;border:none;color:var(--accent);text-decoration:underline;padding:0}
button.danger{background:#fff;color:var(--bad);border-color:var(--bad);padding:.25rem .7rem}
.alert{padding:.6rem .9rem;border-radius:6px;border:1px solid var(--line);background:#fff}
.alert.error{border-color:var(--bad);background:#fdecec;color:var(--bad)}
.alert.notice{border-color:var(--ok);background:#eaf6ee;color:var(--ok)}
.help{color:var(--muted);font-size:.9rem;margin:.1rem 0}
.created{border-color:var(--ok);background:#f3fbf5}
.secret{display:flex;flex-wrap:wrap;gap:.5rem;align-items:center}
.secret code{font-size:1rem;padding:.4rem .6rem;background:#fff;border:1px solid var(--line);border-radius:6px;word-break:break-all}
code{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.9em}
table{border-collapse:collapse;width:100%;background:var(--card);border:1px solid var(--line);border-radius:10px;overflow:hidden}
th,td{padding:.5rem .75rem;border-bottom:1px solid var(--line);text-align:left;vertical-align:middle}
th{background:#f1f3f4;font-size:.9rem}td.num,th.num{text-align:right;font-variant-numeric:tabular-nums}
.badge{display:inline-block;padding:.05rem .5rem;border-radius:999px;font-size:.85rem;border:1px solid currentColor}
.badge.completed,.badge.grant,.badge.refund{color:var(--ok)}.badge.failed{color:var(--bad)}
.badge.processing,.badge.reserve{color:var(--warn)}.badge.queued,.badge.capture{color:var(--muted)}
.error-text{color:var(--bad)}.nowrap{white-space:nowrap}
.compare{display:grid;grid-template-columns:repeat(auto-fit,minmax(280px,1fr));gap:1rem;margin-top:1rem}
figure{margin:0;background:var(--card);border:1px solid var(--line);border-radius:10px;padding:.75rem;min-height:8rem}
figcaption{font-weight:600;margin-bottom:.5rem}.placeholder{color:var(--muted);margin:0}figure img{max-width:100%;height:auto;display:block}
`;

export const DASHBOARD_JS = `"use strict";
(function () {
  function copy(button) {
    var target = document.getElementById(button.getAttribute("data-copy"));
    var note = button.parentElement.querySelector(".copied");
    var text = target.textContent;
    var done = function () { if (note) note.textContent = "Copied to the clipboard."; };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(text).then(done, function () { select(target); });
    } else select(target);
  }
  function select(el) {
    var range = document.createRange();
    range.selectNodeContents(el);
    var sel = window.getSelection();
    sel.removeAllRanges();
    sel.addRange(range);
  }
  document.addEventListener("click", function (e) {
    var b = e.target.closest && e.target.closest("[data-copy]");
    if (b) copy(b);
  });
  document.addEventListener("submit", function (e) {
    var f = e.target;
    var q = f.getAttribute("data-confirm");
    if (q && !window.confirm(q)) e.preventDefault();
  });

  var form = document.getElementById("try-form");
  if (!form) return;
  var main = document.getElementById("main");
  var status = document.getElementById("try-status");
  var before = document.getElementById("try-before");
  var after = document.getElementById("try-after");
  var link = document.getElementById("try-result-link");
  var submit = document.getElementById("try-submit");
  var strength = document.getElementById("try-strength");
  var strengthValue = document.getElementById("try-strength-value");
  var balance = document.querySelector("[data-testid=try-balance]");
  strength.addEventListener("input", function () { strengthValue.textContent = strength.value; });
  function show(text, kind) {
    status.hidden = false;
    status.className = "alert " + kind;
    status.textContent = text;
  }
  form.addEventListener("submit", function (e) {
    e.preventDefault();
    var file = document.getElementById("try-image").files[0];
    if (!file) { show("Choose an image first.", "error"); return; }
    if (before.src) URL.revokeObjectURL(before.src);
    before.src = URL.createObjectURL(file);
    before.hidden = false;
    after.hidden = true;
    document.querySelectorAll(".placeholder").forEach(function (p) { p.hidden = true; });
    link.hidden = true;
    var body = new FormData();
    body.append("image", file);
    body.append("blur_strength", strength.value);
    body.append("pixelated", document.getElementById("try-pixelated").checked ? "true" : "false");
    submit.disabled = true;
    show("Uploading and blurring faces…", "");
    fetch("/dashboard/api/face-blur", { method: "POST", body: body, headers: { "X-CSRF-Token": main.getAttribute("data-csrf") }, credentials: "same-origin" })
      .then(function (res) {
        return res.json().catch(function () { return { error: { message: "The server answered HTTP " + res.status + " without a readable body." } }; })
          .then(function (data) { return { res: res, data: data }; });
      })
      .then(function (r) {
        if (r.res.ok && r.data.success) {
          after.src = r.data.result_url;
          after.hidden = false;
          link.href = r.data.result_url;
          link.hidden = false;
          if (balance) balance.textContent = String(r.data.remaining_credits);
          show("Done: " + r.data.credits_used + " credit(s) used, " + r.data.remaining_credits + " left.", "notice");
        } else {
          var err = r.data.error || {};
          show((err.code ? err.code + ": " : "") + (err.message || "The request failed (HTTP " + r.res.status + ")."), "error");
        }
      }, function () { show("Could not reach the server. Check your connection and try again.", "error"); })
      .then(function () { submit.disabled = false; });
  });
})();
`;
