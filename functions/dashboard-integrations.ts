import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import {
  createKey,
  guestBookingPrintPage,
  integrationsPage,
  revokeKeyAction,
  rotateSecret,
  setEndpoint,
  setPayAtPropertyAction,
  setProvider,
} from '../shared/dashboard/pages/integrations';

export const handler = pageFunction('DashboardIntegrations', {
  DashboardIntegrations: integrationsPage,
  DashboardCreateKey: createKey,
  DashboardRevokeKey: revokeKeyAction,
  DashboardSetEndpoint: setEndpoint,
  DashboardRotateSecret: rotateSecret,
  DashboardSetProvider: setProvider,
  DashboardGuestBookingPrint: guestBookingPrintPage,
  DashboardSetPayAtProperty: setPayAtPropertyAction,
}, { session: sessionOf });
