/** Guest e-mail ids, apart from the outbox so a reader (the reports) bundles without the sender. */
import { nameBasedId } from '../../ids';
import type { EmailKind } from '../../store/email-store';

/** One e-mail of each kind per booking: its id follows from them, so writing it twice is refused. */
export const guestEmailId = (clientId: string, bookingId: string, kind: EmailKind, occasion?: string) =>
  occasion === undefined ? nameBasedId(clientId, 'guest-email', kind, bookingId) : nameBasedId(clientId, 'guest-email', kind, bookingId, occasion);
