import { makeThumbnail } from '@imagestudio/runtime/imaging';
import type { AppContext } from '../../context';
import { productPhotoParams } from '../tool-definitions';
import type { CheckedCompose } from './compose.service';
import type { StoredComposition } from './jobs.repository';

/**
 * Key of a composition's list preview: the picture's own key plus a suffix, so removing the picture's key as a
 * prefix (compose does when the job was deleted while it rendered) removes its preview too, and the job's results
 * prefix holds both.
 */
export function compositionThumbnailKey(pictureKey: string): string {
  return `${pictureKey}.thumb.webp`;
}

/**
 * What a kept composition carries beside its picture, so projects and history can list it and tell how it was
 * made: its WebP preview (the worker's result thumbnail, long side 256 px), stored now, and the option fields
 * that made it, in the job params' form (trimmed text, `background_image: true` when that file came), from
 * which the layout parses again. An edited matte is only noted: it is as large as the photo, and the picture
 * already shows what it did.
 */
export async function keepComposition(
  ctx: Pick<AppContext, 'storage'>,
  pictureKey: string,
  picture: Buffer,
  checked: Pick<CheckedCompose, 'fields' | 'editedMatte'>,
): Promise<Pick<StoredComposition, 'thumbnail_key' | 'layout' | 'edited_matte'>> {
  const thumbnailKey = compositionThumbnailKey(pictureKey);
  await ctx.storage.put(thumbnailKey, await makeThumbnail(picture), 'image/webp');
  return {
    thumbnail_key: thumbnailKey,
    layout: productPhotoParams(checked.fields),
    edited_matte: checked.editedMatte !== undefined,
  };
}
