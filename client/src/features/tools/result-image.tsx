import { Download } from 'lucide-react';
import { resultDownloadName, type JobResultView, type JobView } from '@imagestudio/contracts';
import { useT } from '../../stores';

/**
 * The download of a result, the primary action once there is one. The presigned URL answers with
 * Content-Disposition: attachment under the same name, taken from the input ("cat-no-background.png").
 */
export function DownloadLink({
  job,
  index = 0,
  variant = 'primary',
}: {
  job: JobView;
  index?: number;
  variant?: 'primary' | 'secondary';
}) {
  const t = useT();
  const result: JobResultView | undefined = job.results[index];
  if (!result) return null;
  return (
    <a
      className={`btn btn--${variant} btn--md`}
      href={result.url}
      download={resultDownloadName(job, index, result.format)}
      data-testid="download"
    >
      <Download aria-hidden="true" />
      <span>{t('client-tools.common.download')}</span>
    </a>
  );
}
