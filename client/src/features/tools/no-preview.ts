/**
 * A stand-in for an image the browser cannot show (a HEIC or TIFF outside Safari): a plain panel with a
 * sentence, as an SVG data URL, so every place that shows the input (the preview, the before side of the
 * comparison) shows it instead of a broken image. The panel has the image's proportions when they are known.
 */
export function noPreviewImage(text: string, width?: number | null, height?: number | null): string {
  const aspect = width && height ? width / height : 4 / 3;
  const w = 1200;
  const h = Math.max(1, Math.round(w / aspect));
  const size = Math.round(Math.min(w, h) / 16);
  const svg = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}" viewBox="0 0 ${w} ${h}">`,
    `<rect width="${w}" height="${h}" fill="#e9ecef"/>`,
    `<foreignObject x="${w * 0.1}" y="0" width="${w * 0.8}" height="${h}">`,
    `<div xmlns="http://www.w3.org/1999/xhtml" style="display:flex;align-items:center;justify-content:center;`,
    `height:100%;text-align:center;font:${size}px system-ui,sans-serif;color:#495057">${escapeXml(text)}</div>`,
    '</foreignObject></svg>',
  ].join('');
  return `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
