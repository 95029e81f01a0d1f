// The opened widget's CSS, inside its shadow root (the page's CSS does not reach in; :host resets what
// is inherited). Colours come from the install's settings as custom properties set on the panel; focus
// rings stay visible on any of them (a dark ring with a white halo).
export const PANEL_CSS =
  '.panel{position:fixed;bottom:calc(var(--y) + 64px);right:var(--x);z-index:2147483647;' +
  'width:min(var(--mw),calc(100vw - 2*var(--x)));max-height:calc(100vh - var(--y) - 84px);overflow:auto;' +
  'background:var(--bg);color:var(--fg);border:1px solid var(--bd);border-radius:var(--rd);' +
  'box-shadow:0 12px 40px #0004;font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;' +
  'text-align:left;direction:ltr}' +
  '.panel.left{right:auto;left:var(--x)}' +
  '.panel.inline{position:relative;bottom:auto;right:auto;left:auto;max-height:none;width:100%;max-width:var(--mw)}' +
  '.head{display:flex;align-items:center;gap:8px;padding:12px var(--pd);background:var(--p);color:var(--pt);' +
  'border-radius:calc(var(--rd) - 1px) calc(var(--rd) - 1px) 0 0}' +
  '.head h2{flex:1;margin:0;font-size:17px;font-weight:600;color:inherit}' +
  '.logo{height:28px;width:auto;max-width:80px;object-fit:contain}' +
  '.head select{font:inherit;font-size:13px;padding:4px;border-radius:4px;border:1px solid #fff8;' +
  'background:#fff;color:#222}' +
  '.x{display:grid;place-items:center;width:36px;height:36px;border:0;border-radius:50%;background:transparent;' +
  'color:inherit;cursor:pointer;padding:0}' +
  '.x svg{width:20px;height:20px;stroke:currentColor;stroke-width:2.5;fill:none}' +
  '.tabs{display:flex;gap:4px;padding:8px var(--pd) 0}' +
  '.tabs button{flex:1;font:inherit;font-weight:600;padding:8px;border:1px solid var(--p);background:#fff;' +
  'color:#222;border-radius:6px;cursor:pointer}' +
  '.tabs button[aria-pressed=true]{background:var(--p);color:var(--pt)}' +
  '.body{padding:var(--pd)}' +
  '.f{margin:0 0 12px}' +
  '.f label,.lbl{display:block;margin:0 0 4px;font-weight:600;font-size:14px;color:inherit}' +
  '.req{font-weight:400;opacity:.85}' +
  'input,textarea{display:block;width:100%;font:inherit;margin:0;background:var(--ib);color:var(--ic);' +
  'border:1px solid var(--ibd);border-radius:var(--ir);padding:var(--ip)}' +
  'textarea{resize:vertical}' +
  '[aria-invalid=true]{border-color:var(--ko);border-width:2px}' +
  '.c{display:flex;flex-wrap:wrap;align-items:flex-start;gap:8px}' +
  '.c input{width:18px;height:18px;flex:none;margin-top:2px}' +
  '.c label{flex:1;font-weight:400}' +
  '.c .fe{flex-basis:100%}' +
  '.fe{margin:4px 0 0;color:var(--fe);font-size:13px;font-weight:600}' +
  '.hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}' +
  '.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}' +
  '.go{display:block;width:100%;min-height:44px;font:inherit;font-weight:700;border:0;border-radius:var(--ir);' +
  'background:var(--p);color:var(--pt);padding:10px;cursor:pointer}' +
  '.go[disabled]{opacity:.6;cursor:progress}' +
  '.link{display:block;margin:10px auto 0;font:inherit;font-size:14px;background:none;border:0;' +
  'color:inherit;text-decoration:underline;cursor:pointer;padding:4px}' +
  '.hint{margin:0 0 8px;font-size:13px;opacity:.85}' +
  '.code{margin:0 0 12px;padding:10px;border:1px solid var(--bd);border-radius:8px}' +
  '.day{border:0;margin:0 0 8px;padding:0;display:flex;flex-wrap:wrap;gap:6px}' +
  '.day legend{font-size:13px;font-weight:600;margin:0 0 4px;padding:0;color:inherit}' +
  '.stn-slot{font:inherit;font-size:14px;padding:6px 10px;border:1px solid var(--p);border-radius:6px;' +
  'background:#fff;color:#222;cursor:pointer}' +
  '.stn-slot[aria-pressed=true]{background:var(--p);color:var(--pt)}' +
  '.resp{margin:8px 0;padding:var(--rp);font-size:var(--rf);text-align:var(--ra);border-radius:6px;' +
  'font-weight:600;color:#fff}' +
  '.resp.ok{background:var(--ok)}.resp.ko{background:var(--ko)}' +
  '.done{text-align:center}.big{font-size:18px;font-weight:700}' +
  '.thread{list-style:none;margin:0 0 10px;padding:0;display:flex;flex-direction:column;gap:6px;' +
  'max-height:260px;overflow:auto}' +
  '.thread li{max-width:85%;padding:8px 10px;border-radius:12px;white-space:pre-wrap;word-wrap:break-word}' +
  '.thread .me{align-self:flex-end;background:var(--p);color:var(--pt)}' +
  '.thread .them{align-self:flex-start;background:#eee;color:#222}' +
  'button:focus-visible,input:focus-visible,select:focus-visible,textarea:focus-visible{' +
  'outline:3px solid #111;outline-offset:2px;box-shadow:0 0 0 5px #fff}' +
  '@media (max-width:480px){.panel:not(.inline){left:8px;right:8px;width:auto;bottom:calc(var(--y) + 60px)}}';
