// The lead form's CSS (inside the widget's shadow root, or an embedded form's own), every rule under .lf so
// that it wins over the panel's general ones. Its look comes from the form's styling as custom properties
// (leadVars): --lp padding, --lw max width, --lr roundness, --lbg/--lbd/--lc background, border and text,
// --lb/--lbt the buttons, --le the field errors. Focus rings stay visible on any colour.
export const LEAD_CSS =
  '.lf{display:block;width:100%;max-width:var(--lw);margin:0;padding:var(--lp);background:var(--lbg);' +
  'color:var(--lc);border:1px solid var(--lbd);border-radius:var(--lr);text-align:left;direction:ltr;' +
  'font:15px/1.4 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}' +
  '.lf *{box-sizing:border-box}' +
  '.lf .lt{margin:0 0 6px;font-size:20px;font-weight:700;color:inherit}' +
  '.lf .ld{margin:0 0 12px}' +
  '.lf .ls{margin:0 0 8px;font-size:13px;font-weight:600}' +
  '.lf .lst{margin:0 0 10px;font-size:16px;font-weight:600;color:inherit}' +
  '.lf form{margin:0}' +
  '.lf .f{margin:0 0 12px}' +
  '.lf fieldset{border:0;margin:0 0 12px;padding:0;min-width:0}' +
  '.lf legend{padding:0;margin:0 0 6px;font-weight:600;font-size:14px;color:inherit}' +
  '.lf label{display:block;margin:0 0 4px;font-weight:600;font-size:14px;color:inherit}' +
  '.lf .req{font-weight:400}' +
  '.lf input,.lf textarea{display:block;width:100%;font:inherit;margin:0;background:#fff;color:#222;' +
  'border:1px solid #767676;border-radius:calc(var(--lr)/2);padding:8px}' +
  '.lf textarea{resize:vertical}' +
  '.lf [aria-invalid=true],.lf [aria-invalid=true] input{border-color:var(--le);border-width:2px}' +
  '.lf .c{display:flex;flex-wrap:wrap;align-items:flex-start;gap:8px;margin:0 0 6px}' +
  '.lf .c input{width:18px;height:18px;flex:none;margin:2px 0 0;padding:0}' +
  '.lf .c label{flex:1;margin:0;font-weight:400}' +
  '.lf .c .fe{flex-basis:100%}' +
  '.lf .fe{margin:4px 0 0;color:var(--le);font-size:13px;font-weight:600}' +
  '.lf .hp{position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden}' +
  '.lf .resp{margin:8px 0;padding:10px;border-radius:6px;font-weight:600;color:#fff;background:#C62828}' +
  '.lf .lk{margin:0;font-size:16px;font-weight:600}' +
  '.lf .lnav{display:flex;gap:8px;margin:4px 0 0}' +
  '.lf .go,.lf .lback{flex:1;min-height:44px;margin:0;font:inherit;font-weight:700;cursor:pointer;' +
  'border-radius:calc(var(--lr)/2);padding:10px}' +
  '.lf .go{border:0;background:var(--lb);color:var(--lbt)}' +
  '.lf .lback{background:transparent;color:inherit;border:1px solid currentColor}' +
  '.lf button:focus-visible,.lf input:focus-visible,.lf textarea:focus-visible{outline:3px solid #111;' +
  'outline-offset:2px;box-shadow:0 0 0 5px #fff}';
