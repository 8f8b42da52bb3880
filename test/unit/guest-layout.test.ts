/**
 * The guest booking pages are public pages: a meta description for search engines, and an icon
 * inline (no request, so no 404 for /favicon.ico in the browser's console) that the pages' CSP
 * allows (img-src data:).
 */
import { h } from 'preact';
import { render } from 'preact-render-to-string';
import { beforeAll, describe, expect, it } from 'vitest';
import { linksUnder } from '../../shared/dashboard/layout';
import { CONTENT_SECURITY_POLICY } from '../../shared/dashboard/page-function';
import { GUEST_FAVICON, GuestPage } from '../../shared/guest/layout';
import { type Translate, translator } from '../../shared/i18n/translator';

let t: Translate;
beforeAll(async () => {
  t = await translator('en');
});

const page = (hotel?: string) => render(h(GuestPage, { t, title: 'Book a room', hotel, links: linksUnder('/prod'), menu: undefined, children: h('p', null, 'x') }));

describe('guest page head', () => {
  it('has a meta description naming the hotel, escaped', () => {
    expect(page('Sea & Sun')).toContain('<meta name="description" content="Book a room at Sea &amp; Sun online: choose your dates, see the free rooms with their prices, and pay securely."/>');
    expect(page()).toContain('<meta name="description" content="Book a room online:');
  });

  it('has an inline SVG icon the CSP allows', () => {
    expect(page()).toContain(`<link rel="icon" type="image/svg+xml" href="${GUEST_FAVICON}"/>`);
    expect(GUEST_FAVICON).toMatch(/^data:image\/svg\+xml,%3Csvg/);
    expect(decodeURIComponent(GUEST_FAVICON.slice('data:image/svg+xml,'.length))).toMatch(/^<svg xmlns='http:\/\/www\.w3\.org\/2000\/svg'[^]*<\/svg>$/);
    expect(CONTENT_SECURITY_POLICY).toMatch(/img-src [^;]*\bdata:/);
  });
});
