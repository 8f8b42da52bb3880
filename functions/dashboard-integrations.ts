import { pageFunction } from '../shared/dashboard/page-function';
import { createKey, integrationsPage, revokeKeyAction, rotateSecret, setEndpoint, setProvider } from '../shared/dashboard/pages/integrations';

export const handler = pageFunction('DashboardIntegrations', {
  DashboardIntegrations: integrationsPage,
  DashboardCreateKey: createKey,
  DashboardRevokeKey: revokeKeyAction,
  DashboardSetEndpoint: setEndpoint,
  DashboardRotateSecret: rotateSecret,
  DashboardSetProvider: setProvider,
});
