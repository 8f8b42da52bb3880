import { dashboardIntegrationsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { hotelSettingsPage, saveHotelSettings } from '../shared/dashboard/pages/hotel-settings';
import { integrationsPage } from '../shared/dashboard/pages/integrations';
import { createKey, setEndpoint, setPayAtPropertyAction, setProvider } from '../shared/dashboard/pages/integrations-actions';
import { revokeKeyAction, revokeKeyPage, rotateSecret, rotateSecretPage } from '../shared/dashboard/pages/integrations-confirm';

export const handler = pageFunction(dashboardIntegrationsPages, {
  DashboardIntegrations: integrationsPage,
  DashboardCreateKey: createKey,
  DashboardRevokeKeyPage: revokeKeyPage,
  DashboardRevokeKey: revokeKeyAction,
  DashboardSetEndpoint: setEndpoint,
  DashboardRotateSecretPage: rotateSecretPage,
  DashboardRotateSecret: rotateSecret,
  DashboardSetProvider: setProvider,
  DashboardSetPayAtProperty: setPayAtPropertyAction,
  DashboardHotelSettings: hotelSettingsPage,
  DashboardSaveHotelSettings: saveHotelSettings,
}, { session: sessionOf });
