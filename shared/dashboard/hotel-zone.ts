/** The time zone a dashboard page writes its times in: the operator's hotel's (a client setting). */
import { timeZoneOf } from '../domain/client-settings';
import { findClient as getClient } from '../domain/clients';

export async function hotelZone(clientId: string): Promise<string> {
  const client = await getClient(clientId);
  return client ? timeZoneOf(client) : 'UTC';
}
