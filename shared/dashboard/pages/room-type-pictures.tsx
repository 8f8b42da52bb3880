/**
 * Rooms, "Room type pictures": a picture per room type (a synced category), https only, that the
 * guest pages show with the type before the PMS's own picture; empty goes back to the PMS's.
 */
import { pictureProblem, setRoomTypePicture } from '../../domain/operator-actions/category-pictures';
import { AppError } from '../../errors';
import type { CategoryRecord } from '../../store/category-store';
import { Field, type Links } from '../layout';
import type { PageAction, PageRequest } from '../page-function';
import type { VNode } from 'preact';

/** A picture form that came back with a problem: which type, what was typed, what is wrong. */
export interface PictureForm {
  categoryId: string;
  value: string;
  error: string;
}

/** The summary's key of a type's picture field (its form is one of several on the page). */
export const pictureKey = (index: number) => `picture-${index}`;

export function RoomTypePictures({ links, categories, form }: { links: Links; categories: CategoryRecord[]; form?: PictureForm }) {
  if (categories.length === 0) return null;
  return (
    <section aria-labelledby="pictures">
      <h2 id="pictures">Room type pictures</h2>
      <p class="muted">The guest booking page shows each room type with its picture. A picture set here stays when your PMS syncs the room types again; leave it empty to show the PMS's own.</p>
      {categories.map((category, index) => {
        const mine = form?.categoryId === category.id ? form : undefined;
        return (
          <form method="post" action={links.to('/dashboard/rooms/pictures')} novalidate aria-label={`Picture of ${category.name}`}>
            <input type="hidden" name="category" value={category.id} />
            <Field
              label={`Picture of ${category.name} (https address)`}
              name="image_url"
              key_={pictureKey(index)}
              type="url"
              value={mine ? mine.value : (category.picture_url ?? '')}
              error={mine?.error}
              hint={category.image_url ? `Your PMS sends ${category.image_url}` : 'Like https://example.com/garden-room.jpg'}
            />
            <button type="submit" class="secondary">
              Save picture
            </button>
          </form>
        );
      })}
    </section>
  );
}

/** POST /dashboard/rooms/pictures; `rerender` shows the Rooms page again with the form's problem. */
export function setPictureAction(rerender: (request: PageRequest, form: PictureForm) => Promise<VNode>): PageAction {
  return async (request) => {
    const categoryId = request.form.get('category') ?? '';
    const value = (request.form.get('image_url') ?? '').trim();
    const problem = pictureProblem(value);
    if (problem) return { html: await rerender(request, { categoryId, value, error: problem }), status: 400 };
    try {
      const category = await setRoomTypePicture(request.operator, categoryId, value, request.now);
      return { redirect: '/dashboard/rooms', notice: { kind: 'success', message: value ? `The picture of ${category.name} was saved.` : `${category.name} shows your PMS's picture again.` } };
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      return { html: await rerender(request, { categoryId, value, error: error.status === 404 ? 'That room type is no longer there: reload the page' : error.message }), status: error.status };
    }
  };
}
