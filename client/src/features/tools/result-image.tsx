import { Download } from 'lucide-react';
import type { JobResultView } from '@imagestudio/contracts';
import { useT } from '../../stores';

/** A download link for a result: the presigned URL answers with Content-Disposition: attachment. */
export function DownloadLink({ result, name }: { result: JobResultView; name: string }) {
  const t = useT();
  return (
    <a className="btn btn--secondary btn--sm" href={result.url} download={name} data-testid="download">
      <Download aria-hidden="true" />
      <span>{t('client-tools.common.download')}</span>
    </a>
  );
}

/** File name a result downloads as. */
export function resultFileName(tool: string, jobId: string, index: number, format: string): string {
  return `${tool}-${jobId.slice(0, 8)}-${index + 1}.${format === 'jpeg' ? 'jpg' : format}`;
}
