import { observer } from 'mobx-react-lite';
import { Select } from '../../../components';
import { useStore } from '../../../stores';

/** Interface language; shown when the server offers more than one. */
export const LanguageSelect = observer(function LanguageSelect() {
  const { languages, t } = useStore();
  if (languages.languages.length <= 1) return null;
  return (
    <Select
      className="language-select"
      label={t('shell.footer.language')}
      value={String(languages.activeId ?? '')}
      onChange={(event) => void languages.select(Number(event.target.value))}
      options={languages.languages.map((lang) => ({ value: String(lang.id), label: lang.title }))}
    />
  );
});
