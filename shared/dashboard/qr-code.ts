/**
 * QR codes drawn into the page as data: URLs (the CSP's img-src allows data:), so that what they
 * carry (a TOTP secret) never travels in a URL of its own. The QR code library is loaded on the
 * first code only: a lazy package (infra/bundling.ts), out of the sign-in function's index.mjs.
 */
let qrcode: Promise<typeof import('qrcode')> | undefined;
const loadQrCode = async () => {
  // A CommonJS package: its exports are the module's default (its types declare them as named).
  const module = (await (qrcode ??= import('qrcode'))) as typeof import('qrcode') & { default?: typeof import('qrcode') };
  return module.default ?? module;
};

/** An SVG QR code of `text` as a data: URL. */
export async function qrCodeDataUrl(text: string): Promise<string> {
  const QRCode = await loadQrCode();
  const svg = await QRCode.toString(text, { type: 'svg', errorCorrectionLevel: 'M', margin: 4, width: 240 });
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
