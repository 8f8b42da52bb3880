import { dashboardRoomsPages } from '../definitions/page-routes';
import { pageFunction } from '../shared/dashboard/page-function';
import { sessionOf } from '../shared/dashboard/session';
import { qrSheetPage } from '../shared/dashboard/pages/qr-sheet';
import { addRoom, roomsList, setRoomTypePicture } from '../shared/dashboard/pages/rooms';

export const handler = pageFunction(dashboardRoomsPages, { DashboardRooms: roomsList, DashboardAddRoom: addRoom, DashboardRoomTypePicture: setRoomTypePicture, DashboardQrSheet: qrSheetPage }, { session: sessionOf });
