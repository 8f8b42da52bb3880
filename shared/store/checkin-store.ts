/**
 * Check-in and check-out records of a client on the single table (docs/data-model.md): read by
 * id in batches, written in batches by property sync.
 */
import { batchGet, batchPut } from './batch';
import { keys } from './keys';
import { fromItem } from './items';

export interface CheckinRecord {
  id: string;
  external_source: string;
  external_checkin_id: string;
  external_booking_id: string;
  booking_id: string;
  event: 'check_in' | 'check_out';
  occurred_at: string;
  external_room_id?: string;
  notes?: string;
  content_hash: string;
  created_at: string;
  updated_at: string;
}

export async function getCheckins(clientId: string, source: string, externalIds: readonly string[]): Promise<Map<string, CheckinRecord>> {
  const items = await batchGet([...new Set(externalIds)].map((id) => keys.checkin(clientId, source, id)));
  return new Map(items.map((item) => [item.external_checkin_id as string, fromItem<CheckinRecord>(item)]));
}

/** `beforeChunk` may stop the writes between BatchWriteItem calls (batchPut). */
export async function putCheckins(clientId: string, checkins: readonly CheckinRecord[], beforeChunk?: () => void): Promise<number> {
  return batchPut(
    checkins.map((c) => ({ ...keys.checkin(clientId, c.external_source, c.external_checkin_id), entity: 'checkin', ...c })),
    beforeChunk,
  );
}
