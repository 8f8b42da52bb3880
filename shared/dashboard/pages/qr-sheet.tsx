/**
 * The reception QR sheet, for every operator (staff print it; it is no integration setting): the
 * hotel's name, the QR code of its guest booking page, big, and the page's URL. In print only the
 * sheet shows (the dashboard stylesheet's print rules).
 */
import { requireClient } from '../../domain/clients';
import { bookingPageUrl, qrCodePath } from '../../guest/urls';
import { Page } from '../layout';
import type { PageAction } from '../page-function';

export const qrSheetPage: PageAction = async (request) => {
  const clientId = request.operator.client_id;
  const client = await requireClient(clientId);
  // The hotel's own address when it has one (its slug); the QR code says the same.
  const url = bookingPageUrl(request.baseUrl, client.slug ?? clientId);
  const { links } = request;
  return {
    html: (
      <Page title="Reception QR code" links={links} operator={request.operator} nav="rooms">
        <p class="no-print">
          Print this page, or save it as a PDF from the print dialog, and put it on the reception desk: guests scan it with their phone to book a room. Only the
          sheet below is printed. <a href={links.to('/dashboard/rooms')}>Back to Rooms</a>
        </p>
        <div class="qr-sheet">
          <p class="qr-hotel">{client.name}</p>
          <p class="qr-call">Scan to book your room</p>
          <img src={links.to(qrCodePath(client.slug ?? clientId))} alt={`QR code of the booking page ${url}`} width={384} height={384} />
          <p class="url">{url}</p>
        </div>
      </Page>
    ),
  };
};
