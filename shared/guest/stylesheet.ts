/**
 * The guest booking pages' one stylesheet, served from /book/style.css (the CSP allows styles only
 * from the service itself). Mobile first: one column, thumb-sized buttons, wider screens only get
 * a centred column. Kept small: it is part of the page weight (test/bench/guest-booking.ts).
 */
export const GUEST_CSS = `
:root{--ink:#17202a;--muted:#4a5360;--line:#d0d7de;--accent:#0b5cad;--bg:#f4f6f8;--bad:#a40e26;--ok:#116329}
*{box-sizing:border-box}
body{margin:0;font:17px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:var(--ink);background:var(--bg)}
a{color:var(--accent)}
.bar{padding:.7rem 1rem;background:#12263f;color:#fff}
.bar p{margin:0;font-weight:700}
.languages ul{list-style:none;display:flex;flex-wrap:wrap;gap:.1rem .8rem;margin:.4rem 0 0;padding:0;font-size:.9rem}
.languages a{color:#fff;display:inline-block;padding:.35rem 0}
.languages a[aria-current]{font-weight:700;text-decoration:none}
main{max-width:34rem;margin:0 auto;padding:1rem}
h1{font-size:1.45rem;margin:.2rem 0 1rem}
h2{font-size:1.2rem;margin:1.4rem 0 .5rem}
h3{font-size:1.05rem;margin:1.2rem 0 .4rem}
.card{background:#fff;border:1px solid var(--line);border-radius:8px;padding:1rem;margin-bottom:1rem}
.card h2{margin-top:0}
.field{display:flex;flex-direction:column;gap:.2rem;margin-bottom:.9rem}
.field input{font:inherit;padding:.6rem;border:1px solid #8c959f;border-radius:6px;width:100%;min-width:0;min-height:2.9rem;background:#fff;color:inherit}
.field input[aria-invalid=true]{border-color:var(--bad);border-width:2px}
.field-error{color:var(--bad);font-weight:600}
.hint,.muted{color:var(--muted)}
.row{display:grid;grid-template-columns:minmax(0,1fr) minmax(0,1fr);gap:0 .8rem}
button{font:inherit;font-weight:600;min-height:2.9rem;padding:.5rem 1.1rem;border-radius:6px;border:1px solid var(--accent);background:var(--accent);color:#fff;cursor:pointer}
button.wide{width:100%;margin-top:.4rem}
button.secondary{background:#fff;color:var(--accent)}
button.warning{background:var(--bad);border-color:var(--bad)}
.notice{padding:.7rem .9rem;border-radius:6px;margin-bottom:1rem;border:1px solid}
.notice.error{background:#ffebe9;border-color:#ff8182}
.notice.success{background:#dafbe1;border-color:#4ac26b}
.notice p{margin:.2rem 0}
.error-summary{border:4px solid var(--bad);background:#fff;padding:.6rem 1rem;margin-bottom:1rem}
.error-summary h2{margin:0 0 .4rem}
.error-summary ul{margin:0;padding-left:1.1rem}
.error-summary a{color:var(--bad);font-weight:600}
ul.rooms{list-style:none;margin:0;padding:0}
.rooms li{display:flex;align-items:center;justify-content:space-between;gap:.8rem;background:#fff;border:1px solid var(--line);border-radius:8px;padding:.6rem .8rem;margin-bottom:.5rem}
.rooms p{margin:0;min-width:0;overflow-wrap:anywhere}
.rooms button{flex:none}
.rooms li.planned{display:block}
ul.plans{list-style:none;margin:.5rem 0 0;padding:0}
.plans li{flex-wrap:wrap;margin-bottom:.4rem}
.plans button{max-width:100%;white-space:normal}
.category{margin-bottom:1.2rem}
.type h3{margin-top:.2rem}
.type-image{display:block;width:100%;height:auto;aspect-ratio:16/9;object-fit:cover;border-radius:6px;margin-bottom:.6rem;background:var(--line)}
.left{display:inline-block;margin:0 0 .4rem;padding:.05rem .6rem;border-radius:999px;background:#fff1e5;color:#8a3b00;font-weight:600;font-size:.9rem}
.offer{display:flex;align-items:center;justify-content:space-between;gap:.8rem}
.offer p{margin:0;min-width:0;overflow-wrap:anywhere}
.offer button{flex:none}
.about{margin:.2rem 0 .5rem}
ul.amenities{list-style:none;display:flex;flex-wrap:wrap;gap:.3rem;margin:0 0 .6rem;padding:0}
.amenities li{border:1px solid var(--line);border-radius:999px;padding:.05rem .6rem;background:#fff;font-size:.9rem}
.price{color:var(--muted)}
.policy,.address{white-space:pre-line;overflow-wrap:anywhere}
ul.next{margin:0;padding-left:1.2rem}
.next li{margin-bottom:.5rem}
a.button{display:inline-block;font-weight:600;padding:.6rem 1.1rem;border-radius:6px;background:var(--accent);color:#fff;text-decoration:none}
.facts{display:grid;grid-template-columns:max-content 1fr;gap:.3rem 1rem;margin:0}
.facts dt{font-weight:600}
.facts dd{margin:0;overflow-wrap:anywhere}
.codes{margin:0}
.codes dt{font-weight:600}
.codes dd{margin:0 0 .6rem;font-size:1.35rem;font-weight:700;letter-spacing:.05em;overflow-wrap:anywhere}
.status-paid{color:var(--ok);font-weight:600}
footer{max-width:34rem;margin:0 auto;padding:1rem;color:var(--muted);font-size:.9rem}
`
  .trim()
  .replace(/\n/g, '');
