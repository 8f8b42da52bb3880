/**
 * The room types' pictures on the dashboard (Rooms, "Room type pictures"): a picture per synced
 * category, https only, shown on the guest pages before the PMS's own (docs/behaviour.md "The
 * guest's booking page as a storefront"), and its audit entry.
 */
import { errors } from '../../errors';
import { httpsUrl } from '../../schemas/property-sync';
import { type CategoryRecord, listCategories, setCategoryPicture } from '../../store/category-store';
import { type Actor, recordAction } from './actor';

/** What is wrong with a picture's address, in plain words; undefined when it is an https address (or empty: none). */
export function pictureProblem(url: string): string | undefined {
  // The sync's own rule for a category's image_url, in words for the form.
  if (!url || httpsUrl.safeParse(url).success) return undefined;
  if (url.length > 2000) return 'The picture address can be at most 2000 characters';
  return URL.canParse(url) ? 'The picture’s address must start with https://' : 'Enter the picture’s address, like https://example.com/garden-room.jpg';
}

/** The client's categories, for the form. */
export const roomTypes = (clientId: string): Promise<CategoryRecord[]> => listCategories(clientId);

/**
 * Sets the picture of the category `categoryId` (empty: back to the PMS's), records
 * `category.picture`. 400 VALIDATION_ERROR for an address that is not https; 404 for a category
 * not the client's.
 */
export async function setRoomTypePicture(actor: Actor, categoryId: string, url: string, now = new Date()): Promise<CategoryRecord> {
  const problem = pictureProblem(url);
  if (problem) throw errors.validation([{ path: 'image_url', message: problem }]);
  const category = (await listCategories(actor.client_id)).find((c) => c.id === categoryId);
  if (!category) throw errors.notFound();
  await setCategoryPicture(actor.client_id, category, url || null, now);
  await recordAction(actor, { action: 'category.picture', target: category.id, changes: { category: category.name, picture: url || null } }, now);
  return category;
}
