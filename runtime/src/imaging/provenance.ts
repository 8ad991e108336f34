/** IPTC digital source types (https://cv.iptc.org/newscodes/digitalsourcetype/) the worker writes. */
export type DigitalSourceType = 'compositeWithTrainedAlgorithmicMedia' | 'trainedAlgorithmicMedia';

/**
 * An XMP packet declaring how the image was made (IPTC Extension `DigitalSourceType`), so downstream tools and
 * platforms can tell AI-edited or AI-generated images apart. Written into every result file.
 */
export function provenanceXmp(type: DigitalSourceType, tool: string): string {
  return [
    '<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>',
    '<x:xmpmeta xmlns:x="adobe:ns:meta/">',
    '<rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">',
    '<rdf:Description rdf:about=""',
    ' xmlns:Iptc4xmpExt="http://iptc.org/std/Iptc4xmpExt/2008-02-29/"',
    ' xmlns:xmp="http://ns.adobe.com/xap/1.0/"',
    ` Iptc4xmpExt:DigitalSourceType="http://cv.iptc.org/newscodes/digitalsourcetype/${type}"`,
    ` xmp:CreatorTool="${escapeXml(tool)}"/>`,
    '</rdf:RDF>',
    '</x:xmpmeta>',
    '<?xpacket end="w"?>',
  ].join('');
}

function escapeXml(s: string): string {
  return s.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
