import { useState } from 'react';
import { Copy } from 'lucide-react';
import { Button } from '../../components';
import { useStore } from '../../stores';

/** A value to copy, with a button that copies it. */
export function CopyField({ value, label, testId }: { value: string; label: string; testId: string }) {
  const { t } = useStore();
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(() => setCopied(true));
  };
  return (
    <div className="copy-field">
      <code aria-label={label} data-testid={testId}>
        {value}
      </code>
      <Button variant="secondary" size="sm" icon={<Copy aria-hidden="true" />} onClick={copy}>
        {copied ? t('client-developer.keys.copied') : t('client-developer.keys.copy')}
      </Button>
    </div>
  );
}
