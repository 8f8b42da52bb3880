import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { signInPage, stylesheet, submitNewPassword, submitSignIn, submitSignOut } from '../shared/dashboard/pages/session';

export const handler = pageFunction('DashboardSession', {
  DashboardSignInPage: signInPage,
  DashboardSignIn: submitSignIn,
  DashboardNewPassword: submitNewPassword,
  DashboardSignOut: submitSignOut,
  DashboardStylesheet: stylesheet,
}, { session: sessionOf });
