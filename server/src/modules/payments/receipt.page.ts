import escapeHtml from 'escape-html';
import type { ReceiptDocument } from '@imagestudio/contracts';

const e = (v: unknown) => escapeHtml(String(v ?? ''));

/**
 * A receipt document as one printable HTML page (the operator console opens it). Every value is escaped:
 * billing fields are customer input.
 */
export function renderReceipt(doc: ReceiptDocument): string {
  const block = (name: string, b: ReceiptDocument['seller']) =>
    `<section data-section="${name}"><h2>${e(b.heading)}</h2><p>${b.lines.map(e).join('<br>')}</p></section>`;
  const rows = doc.rows
    .map((r) =>
      r.key === 'total'
        ? `<tr data-line="total"><th>${e(r.label)}</th><th>${e(r.value)}</th></tr>`
        : `<tr data-line="${r.key}"><td>${e(r.label)}</td><td>${e(r.value)}</td></tr>`,
    )
    .join('');
  return `<!doctype html>
<html lang="${e(doc.lang)}"><head><meta charset="utf-8"><title>${e(doc.title)} ${e(doc.invoice.value)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:680px;margin:40px auto;padding:0 16px;color:#161a22}
h1{font-size:24px}h2{font-size:15px;margin-bottom:4px}.blocks{display:flex;gap:32px;flex-wrap:wrap}
table{width:100%;border-collapse:collapse;margin-top:24px}td,th{padding:6px 0;text-align:left}
td+td,th+th{text-align:right}tr[data-line=total]{border-top:1px solid #c8ccd4}
</style></head>
<body>
  <h1>${e(doc.title)}</h1>
  <p>${[doc.invoice, doc.order, doc.date].map((f) => `${e(f.label)}: ${e(f.value)}`).join('<br>')}</p>
  <div class="blocks">${block('seller', doc.seller)}${block('buyer', doc.buyer)}</div>
  <table>${rows}</table>
</body></html>`;
}
