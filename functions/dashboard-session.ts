import { dashboardSessionPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import {
  signInPage,
  stylesheet,
  submitCode,
  submitMfaSetup,
  mfaSetupAgain,
  submitNewPassword,
  submitSignIn,
  submitSignOut,
} from '../shared/dashboard/pages/session';

export const handler = pageFunction(dashboardSessionPages, {
  DashboardSignInPage: signInPage,
  DashboardSignIn: submitSignIn,
  DashboardNewPassword: submitNewPassword,
  DashboardSignInCode: submitCode,
  DashboardMfaSetupPage: mfaSetupAgain,
  DashboardMfaSetup: submitMfaSetup,
  DashboardSignOut: submitSignOut,
  DashboardStylesheet: stylesheet,
}, { session: sessionOf });
