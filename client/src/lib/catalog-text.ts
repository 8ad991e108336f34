import { fileNameBase } from '@imagestudio/contracts';

/** Looks a catalogue text up in the active language, with the catalogue's own text as the fallback. */
type CatalogText = (key: string, fallback: string) => string;

/**
 * A pack's title and description in the active language. Packs are keyed in the strings table by their
 * seeded English title (`catalog.packs.starter.title`); a pack the operator added or renamed shows its own text.
 */
export function packText(
  text: CatalogText,
  pack: { title: string; description?: string | null },
): { title: string; description: string } {
  const slug = fileNameBase(pack.title).toLowerCase();
  return {
    title: text(`catalog.packs.${slug}.title`, pack.title),
    description: pack.description ? text(`catalog.packs.${slug}.description`, pack.description) : '',
  };
}

/** A style preset's name in the active language (`catalog.styles.<id>`). */
export function styleLabel(text: CatalogText, style: { id: string; label: string }): string {
  return text(`catalog.styles.${style.id}`, style.label);
}
